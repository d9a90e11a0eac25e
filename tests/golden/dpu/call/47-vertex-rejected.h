/* The DPU has no vertex or kernel functions. */
__attribute__((colossus_vertex)) void f(void);
