/* ipu.md section 1, worked example 3. */
struct ll_bits {
  char a;
  long long b : 8;
};
