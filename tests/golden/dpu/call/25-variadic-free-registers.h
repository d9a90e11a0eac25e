/* Extra arguments never use registers. */
void v(long long a, ...);
