struct zero_char {
  int a : 3;
  char : 0;
  char b;
};
