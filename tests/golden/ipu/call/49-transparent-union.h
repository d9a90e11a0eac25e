/* A transparent union is passed as its first member. */
typedef union {
  int* ip;
  float* fp;
} TU __attribute__((transparent_union));
void f(TU u, float x);
