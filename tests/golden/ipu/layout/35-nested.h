struct inner_d {
  char a;
  double d;
};
struct outer_d {
  char c;
  struct inner_d i;
  long long x;
};
