struct complexes {
  char c;
  _Complex float cf;
  _Complex double cd;
};
