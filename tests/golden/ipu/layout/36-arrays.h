struct arrays {
  char c;
  double d[2];
  long long l[1];
};
