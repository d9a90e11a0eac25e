struct double_zero {
  char a;
  short : 0;
  short : 0;
  char b;
};
