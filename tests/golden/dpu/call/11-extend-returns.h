/* Small integer return values are extended by the callee. */
char f(void);
unsigned short g(void);
_Bool h(void);
