/* Sub-32-bit integers are extended by their C type's signedness. */
void f(char c, unsigned short s, _Bool b, signed char sc);
