struct unnamed_int {
  char a;
  int : 4;
};
struct unnamed_short {
  char a;
  short : 3;
  char b;
};
