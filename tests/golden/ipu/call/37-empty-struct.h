/* GNU C empty struct. */
struct E {};
void f(struct E e, int a);
