/* Byte and half-word arguments of signed types. */
void f(char c, short s, signed char sc);
