/* With the hidden pointer in r0 only seven words fit in registers. */
struct S {
  int x;
};
struct S f(int a, int b, int c, int d, int e, int g, int h, int i);
