/* A pair is unusable as soon as either half is taken. */
#include <ipudef.h>
void f(int2 a, int b, int2 c, int d);
