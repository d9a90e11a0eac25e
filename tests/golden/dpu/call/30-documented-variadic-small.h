/* Seed: a 3-byte composite vararg, word-aligned like every stack argument. */
struct C {
  char a, b, c;
};
void v(int n, ...);
