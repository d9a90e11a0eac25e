struct bits {
  int a : 3;
  int b : 5;
  char c;
};
