/* Integer vectors keep their $m classes in every mode. */
#include <ipudef.h>
void f(int2 a, short4 b, short2 c);
