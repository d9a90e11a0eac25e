struct unnamed_ll {
  char a;
  long long : 7;
};
