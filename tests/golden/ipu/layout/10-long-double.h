struct short_ld {
  short s;
  long double x;
};
