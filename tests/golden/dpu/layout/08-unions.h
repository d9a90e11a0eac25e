union u8 {
  char c[5];
  int i;
  long l;
};
union u10 {
  char c[9];
  short s;
};
