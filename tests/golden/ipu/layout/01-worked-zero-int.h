/* ipu.md section 1, worked example 1. */
struct zero_int {
  char a;
  int : 0;
  char b;
};
