/* reference/ipu.md section 3.4, example 12. */
#include <ipudef.h>
void f(int a, int b, int c, int d, int e, int2 v);
