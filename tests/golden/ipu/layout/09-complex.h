struct complexes {
  char c;
  _Complex float f;
  _Complex double d;
};
