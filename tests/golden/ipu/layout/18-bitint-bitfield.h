struct bitint_bits {
  char c;
  _BitInt(20) x : 12;
};
