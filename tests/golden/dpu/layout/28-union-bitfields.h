union bits_union {
  int a : 3;
  long b : 40;
  char c;
};
