/* Enums are passed as their underlying type. */
enum E { A, B };
enum Big { X = 0x100000000LL };
void f(enum E e, enum Big b);
enum E g(void);
