/* Extra arguments align on the shared counter. */
void v(int a, int b, int c, int d, int e, int g, int h, long long x, ...);
