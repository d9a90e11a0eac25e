struct packed_field {
  char c;
  long l __attribute__((packed));
  int i;
};
