/* reference/ipu.md section 3.4, example 11. */
#include <ipudef.h>
void f(int a, int2 b, int c);
