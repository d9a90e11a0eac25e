typedef struct {
  char tag;
  long value;
} boxed;
struct box_pair {
  boxed a;
  char sep;
  boxed b;
};
