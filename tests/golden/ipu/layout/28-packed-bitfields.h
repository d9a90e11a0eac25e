struct __attribute__((packed)) packed_named {
  char c;
  int x : 4;
};
struct __attribute__((packed)) packed_unnamed {
  char c;
  int : 4;
};
