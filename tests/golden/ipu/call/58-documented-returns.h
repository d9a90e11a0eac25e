/* Seed: integer returns in $m0-$m3, floating-point returns in $a0-$a3. */
#include <ipudef.h>
double f(void);
long long g(void);
float2 h(void);
float4 k(void);
int4 m(void);
