union unnamed_union {
  char c;
  int : 12;
};
