struct outer_anon {
  char t;
  struct {
    char a;
    int : 0;
  };
  char z;
};
