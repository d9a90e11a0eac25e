/* The hidden return pointer blocks d0. */
struct S {
  char c;
};
struct S f(long long a, long long b, long long c, int d);
