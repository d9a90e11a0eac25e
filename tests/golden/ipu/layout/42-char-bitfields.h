struct char_bits {
  char a : 7;
  char b : 2;
  unsigned char : 0;
  char c;
};
