/* reference/ipu.md section 3.4, example 20. */
#include <ipudef.h>
float4 f(void);
int4 g(void);
