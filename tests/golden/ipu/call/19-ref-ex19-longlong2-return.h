/* reference/ipu.md section 3.4, example 19. */
#include <ipudef.h>
longlong2 f(half2 x);
