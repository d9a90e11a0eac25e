struct short_straddle {
  short x : 10;
  short y : 12;
};
