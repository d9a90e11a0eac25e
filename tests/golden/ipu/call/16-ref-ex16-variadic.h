/* reference/ipu.md section 3.4, example 16: v(1, 2.0, s). */
struct S {
  int a, b;
};
void v(int n, ...);
