/* reference/ipu.md section 3.4, example 21. */
#include <ipudef.h>
longlong4 f(int a);
