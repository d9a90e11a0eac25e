/* Unions and _Complex are aggregates. */
union U {
  int i;
  float f;
};
void f(union U u, _Complex float z);
_Complex double g(void);
