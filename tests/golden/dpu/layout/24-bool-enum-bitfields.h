enum color { RED, GREEN, BLUE };
struct bool_enum {
  _Bool f : 1;
  enum color c : 2;
  unsigned u : 5;
};
