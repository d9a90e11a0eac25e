/* ipu.md section 1: struct{char c; double d;} is 12/4. */
struct char_double {
  char c;
  double d;
};
