/* Seed: 128-bit parameters in aligned quads. */
#include <ipudef.h>
void f(float a, float4 v, int4 w, int b);
