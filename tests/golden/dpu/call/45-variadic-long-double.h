/* long double and float extras. */
void v(const char* fmt, ...);
