struct char_long {
  char c;
  long l;
};
