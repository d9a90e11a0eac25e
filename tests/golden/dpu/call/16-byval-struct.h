/* A small struct argument is still passed by reference to a copy. */
struct P {
  int x, y;
};
void f(struct P p, int a);
