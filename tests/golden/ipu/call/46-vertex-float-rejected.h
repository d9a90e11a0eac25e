/* A vertex return must be a 32-bit integer. */
__attribute__((colossus_vertex)) float v(void);
struct S {
  int x;
};
__attribute__((colossus_vertex)) struct S w(void);
