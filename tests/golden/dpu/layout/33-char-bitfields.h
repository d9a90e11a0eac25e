struct char_bits {
  char a : 3;
  char b : 6;
};
