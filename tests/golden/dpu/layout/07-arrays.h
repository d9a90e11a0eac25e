struct arrays {
  char c[3];
  short s[3];
  long l[2];
};
