/* ipu.md section 1, worked example 4. */
struct zero_ll {
  char a;
  long long : 0;
  char b;
};
