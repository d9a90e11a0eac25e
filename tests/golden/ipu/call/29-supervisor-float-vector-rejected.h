/* Float vectors outside worker mode. */
#include <ipudef.h>
void f(float2 v);
