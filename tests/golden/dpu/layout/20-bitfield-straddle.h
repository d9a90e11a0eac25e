struct int_straddle {
  int a : 20;
  int b : 20;
};
struct short_straddle {
  short x : 10;
  short y : 12;
};
