struct point {
  short x;
  char y;
};
struct polygon {
  char n;
  struct point pts[3];
};
