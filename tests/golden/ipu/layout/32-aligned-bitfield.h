struct aligned_bits {
  char a;
  int b : 4 __attribute__((aligned(4)));
};
