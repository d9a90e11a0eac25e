struct zero_int {
  char a;
  int : 0;
  char b;
};
struct zero_end {
  char c;
  int : 0;
};
