/* Seed: smaller scalars are extended, also through a single-member aggregate. */
struct C {
  char c;
};
struct C f(unsigned short u, struct C c);
