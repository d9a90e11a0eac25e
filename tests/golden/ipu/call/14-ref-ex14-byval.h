/* reference/ipu.md section 3.4, example 14. */
struct S {
  int x;
};
void f(struct S s);
