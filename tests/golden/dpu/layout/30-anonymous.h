struct tagged {
  char tag;
  union {
    int i;
    float f;
  };
  long l;
};
