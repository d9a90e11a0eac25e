enum e_small { SMALL_A, SMALL_B };
enum e_neg { NEG = -5 };
enum e_huge { HUGE = 0x100000000 };
struct enums {
  char c;
  enum e_small a;
  enum e_huge h;
  enum e_neg n;
};
