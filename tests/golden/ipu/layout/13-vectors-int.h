#include <ipudef.h>
struct int_vectors {
  char2 a;
  uchar4 b;
  short2 c;
  short4 d;
  int2 e;
  int4 f;
};
