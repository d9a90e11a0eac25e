#include <ipudef.h>
struct half_vectors {
  char c;
  half2 a;
  half4 b;
  half8 d;
};
