struct ll_bits {
  char c;
  long long x : 20;
};
