/* A single bit-field member: the seed does not say. */
struct B {
  int x : 3;
};
void f(struct B b);
