struct inner4 {
  int a;
  char b;
};
struct __attribute__((packed)) packed_outer {
  char c;
  struct inner4 i;
};
