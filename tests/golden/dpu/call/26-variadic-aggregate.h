/* An aggregate extra argument travels as a pointer to a copy. */
struct S {
  int a, b, c;
};
void v(int n, ...);
