/* A variadic function returning a struct. */
struct S {
  int x;
};
struct S v(int n, ...);
