struct bf_field {
  char a;
  short b : 4;
  char c;
};
