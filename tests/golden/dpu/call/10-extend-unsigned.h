/* _Bool and unsigned byte and half-word arguments. */
void f(_Bool b, unsigned char uc, unsigned short us);
