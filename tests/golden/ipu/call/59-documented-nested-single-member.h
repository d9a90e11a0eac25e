/* Seed: the single-member rule applied through nesting and one-element arrays. */
struct In {
  double d;
};
struct Out {
  struct In in;
};
struct A1 {
  int a[1];
};
void f(struct Out o, struct A1 a);
