struct mixed {
  short s;
  long long x : 33;
  char c;
};
