/* reference/ipu.md section 3.4, example 15. */
struct S {
  int x, y;
};
struct S g(int a);
