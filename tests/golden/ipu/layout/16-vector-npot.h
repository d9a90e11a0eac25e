typedef char char3 __attribute__((vector_size(3)));
struct npot {
  char c;
  char3 v;
};
