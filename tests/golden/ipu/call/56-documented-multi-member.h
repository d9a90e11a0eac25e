/* Seed: other aggregates by pointer, returned through an implicit parameter. */
struct P {
  int x, y;
};
struct P f(struct P p, _Complex float z);
