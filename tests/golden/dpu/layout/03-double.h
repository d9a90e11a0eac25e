struct char_double {
  char c;
  double d;
};
struct float_double_float {
  float f;
  double d;
  float g;
};
