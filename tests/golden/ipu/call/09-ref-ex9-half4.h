/* reference/ipu.md section 3.4, example 9. */
#include <ipudef.h>
void f(float a0, float a1, float a2, float a3, half4 b, half4 c);
