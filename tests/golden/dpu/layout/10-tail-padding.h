struct tail {
  long l;
  char c;
};
