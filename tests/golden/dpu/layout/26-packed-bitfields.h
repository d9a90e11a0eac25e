struct __attribute__((packed)) packed_bits {
  char c;
  int x : 20;
  int y : 12;
};
