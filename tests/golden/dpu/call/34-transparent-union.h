/* A transparent union is passed as its first member. */
typedef union {
  int* ip;
  long* lp;
} U __attribute__((transparent_union));
void f(U u, int a);
