#include <ipudef.h>
struct float_vectors {
  float2 a;
  float4 b;
  char c;
};
