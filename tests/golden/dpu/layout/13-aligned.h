struct __attribute__((aligned(16))) aligned_record {
  char c;
};
struct aligned_field {
  char c;
  int i __attribute__((aligned(16)));
};
struct __attribute__((aligned(1))) not_lowered {
  int i;
};
