/* An 8-aligned aggregate: its pointer is still one word. */
struct B {
  long long v[4];
};
void f(int a, struct B b, long long c);
