/* reference/ipu.md section 3.4, example 10. */
#include <ipudef.h>
void f(float a, float2 b, float c);
