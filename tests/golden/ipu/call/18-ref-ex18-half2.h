/* reference/ipu.md section 3.4, example 18. */
#include <ipudef.h>
half2 f(half a, half2 b);
