struct zero_long {
  char a;
  long : 0;
  char b;
};
