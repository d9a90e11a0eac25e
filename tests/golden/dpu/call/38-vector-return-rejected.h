/* A vector return needs more than r0 / d0. */
typedef int v2i __attribute__((vector_size(8)));
v2i f(void);
