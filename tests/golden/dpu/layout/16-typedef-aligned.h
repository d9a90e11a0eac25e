typedef long lowered_long __attribute__((aligned(2)));
typedef char raised_char __attribute__((aligned(8)));
struct typedef_lowers {
  char c;
  lowered_long l;
};
struct typedef_raises {
  char c;
  raised_char r;
};
