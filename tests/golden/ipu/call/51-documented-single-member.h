/* Seed: a single-member aggregate is passed and returned as its member. */
struct F {
  float f;
};
struct I {
  int i;
};
struct F f(struct F x, struct I y);
