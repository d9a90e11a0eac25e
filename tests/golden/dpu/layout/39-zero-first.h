struct zero_first {
  int : 0;
  char c;
};
