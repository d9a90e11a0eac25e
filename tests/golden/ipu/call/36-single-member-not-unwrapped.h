/* The compiler does not unwrap single-member aggregates. */
struct F {
  float f;
};
struct F f(struct F x);
