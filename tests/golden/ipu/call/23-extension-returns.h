/* Sub-32-bit return values are extended too. */
short f(void);
unsigned char g(void);
