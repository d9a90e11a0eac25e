struct int_straddle {
  int a : 20;
  int b : 20;
};
