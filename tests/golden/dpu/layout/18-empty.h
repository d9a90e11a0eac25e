struct empty {};
struct holder {
  char c;
  struct empty e;
  char d;
};
