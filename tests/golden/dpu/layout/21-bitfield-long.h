struct long_bits {
  char c;
  long x : 20;
};
struct long_straddle {
  int a : 30;
  long b : 40;
};
