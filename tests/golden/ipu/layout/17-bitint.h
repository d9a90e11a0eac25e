struct bitints {
  _BitInt(7) a;
  _BitInt(17) b;
  _BitInt(33) c;
  _BitInt(65) d;
  unsigned _BitInt(128) e;
};
