struct bool_bits {
  _Bool a : 1;
  _Bool : 0;
  _Bool b : 1;
};
