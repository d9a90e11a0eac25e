struct char_long {
  char c;
  long l;
};
struct int_long_int {
  int i;
  long l;
  int j;
};
