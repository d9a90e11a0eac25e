#include <ipudef.h>
struct long_vectors {
  long2 a;
  long4 b;
  longlong2 c;
  longlong4 d;
};
