/* ipu.md section 1: struct{char c; long long x;} is 16/8. */
struct char_ll {
  char c;
  long long x;
};
