/* _BitInt parameters and returns. */
void f(_BitInt(24) a, unsigned _BitInt(48) b, _BitInt(100) c);
_BitInt(7) g(void);
_BitInt(65) h(void);
