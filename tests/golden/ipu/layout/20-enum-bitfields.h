enum e_small2 { SMALL2_A, SMALL2_B };
enum e_neg2 { NEG2 = -5 };
struct enum_bits {
  enum e_small2 a : 2;
  enum e_neg2 b : 3;
};
