struct unnamed_short {
  char a;
  short : 3;
  char b;
};
