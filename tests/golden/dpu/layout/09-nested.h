struct inner {
  char a;
  int b;
};
struct outer {
  char x;
  struct inner y;
  char z;
};
