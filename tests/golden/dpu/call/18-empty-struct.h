/* GNU C empty struct (size 0). */
struct E {};
void f(struct E e, int a);
