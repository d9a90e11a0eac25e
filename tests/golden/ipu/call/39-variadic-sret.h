/* A variadic function returning a struct: the sret pointer is on the stack. */
struct S {
  int x;
};
struct S v(int n, ...);
