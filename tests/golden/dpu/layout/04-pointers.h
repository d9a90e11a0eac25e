struct pointers {
  char c;
  __mram int* m;
  int* w;
  char* s[3];
  void (*handler)(int);
};
