/* 16-bit elements are promoted to words one by one. */
typedef short v4s __attribute__((vector_size(8)));
void f(v4s v);
