/* A vector of 64-bit elements: one pair per element. */
typedef long long v2l __attribute__((vector_size(16)));
void f(int a, v2l v, int b);
