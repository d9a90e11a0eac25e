/* The documented variant changes only composite varargs. */
struct P {
  int x, y;
};
struct P f(int a, long long b, int c, struct P p);
