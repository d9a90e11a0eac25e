union scalars_union {
  char c;
  double d;
  long long l;
};
