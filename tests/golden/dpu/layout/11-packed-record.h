struct __attribute__((packed)) packed_record {
  char c;
  long l;
  short s;
};
