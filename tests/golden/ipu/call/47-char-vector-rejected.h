/* 8-bit integer vectors: legalisation unverified. */
#include <ipudef.h>
void f(char4 c);
uchar2 g(void);
