struct __attribute__((packed)) packed_zero {
  char c;
  int : 0;
  char d;
};
