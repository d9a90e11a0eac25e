/* Every scalar type of the DPU data model in one struct (dpu.md section 1). */
struct scalars {
  _Bool b;
  char c;
  short s;
  int i;
  long l;
  long long ll;
  float f;
  double d;
  long double ld;
  void* p;
  void (*fp)(void);
  __fp16 h;
};
