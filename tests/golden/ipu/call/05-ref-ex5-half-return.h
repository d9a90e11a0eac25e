/* reference/ipu.md section 3.4, example 5. */
#include <ipudef.h>
half f(double x);
