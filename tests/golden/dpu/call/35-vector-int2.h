/* A vector argument is split into its elements. */
typedef int v2i __attribute__((vector_size(8)));
void f(v2i v, int a);
