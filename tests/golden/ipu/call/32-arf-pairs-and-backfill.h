/* Pairs and singles in the $a file. */
#include <ipudef.h>
void f(float a, half4 b, float2 c, float d, float e, half h);
