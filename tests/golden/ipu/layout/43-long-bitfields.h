struct long_bits {
  long a : 31;
  long b : 2;
};
