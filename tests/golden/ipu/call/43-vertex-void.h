/* A codelet returning void. */
__attribute__((colossus_vertex)) void v(void);
