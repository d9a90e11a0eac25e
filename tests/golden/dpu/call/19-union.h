/* Unions are aggregates too. */
union U {
  int i;
  float f;
};
void f(union U u);
union U g(int a);
