struct __attribute__((packed)) packed_record {
  char c;
  long long x;
  double d;
};
