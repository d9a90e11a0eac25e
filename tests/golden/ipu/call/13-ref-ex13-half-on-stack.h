/* reference/ipu.md section 3.4, example 13. */
#include <ipudef.h>
void f(float a, float b, float c, float d, float e, float g, half h);
