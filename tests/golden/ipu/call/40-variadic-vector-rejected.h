/* Vectors cannot be passed to a variadic function. */
#include <ipudef.h>
void v(int n, ...);
void w(float2 x, ...);
