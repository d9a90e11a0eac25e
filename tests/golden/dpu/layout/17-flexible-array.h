struct fam_long {
  int n;
  long data[];
};
struct fam_char {
  short n;
  char d[];
};
