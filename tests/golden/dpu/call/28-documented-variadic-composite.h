/* Seed: composite varargs by value on the stack. */
struct S {
  int a, b, c;
};
void v(int n, ...);
