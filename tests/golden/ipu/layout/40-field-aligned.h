struct field_double {
  char c;
  double d __attribute__((aligned(8)));
};
