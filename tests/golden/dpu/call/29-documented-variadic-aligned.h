/* Seed: a composite vararg keeps its alignment on the stack. */
struct D {
  char c;
  double d;
};
void v(int n, ...);
