/* <2 x i64> as an argument: four i32 pieces. */
#include <ipudef.h>
void f(longlong2 v, int a);
