enum small { SMALL_A, SMALL_B };
enum negative { NEG = -1 };
enum big { BIG = 0x100000000 };
enum __attribute__((packed)) tiny { TINY_1 = 1, TINY_2 = 200 };
struct enums {
  char c;
  enum small s;
  enum big b;
  enum negative n;
};
struct tiny_enums {
  enum tiny a;
  enum tiny b;
  short s;
};
