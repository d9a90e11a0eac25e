typedef double double8 __attribute__((aligned(8)));
struct typedef_double {
  char c;
  double8 d;
};
