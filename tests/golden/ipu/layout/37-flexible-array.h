struct fam_double {
  char n;
  double d[];
};
