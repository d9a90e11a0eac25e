/* 128-bit vectors are two 64-bit halves, assigned one at a time. */
#include <ipudef.h>
void f(int a, int4 v, float4 w);
