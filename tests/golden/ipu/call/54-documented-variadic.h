/* Seed: only the variadic parameters go on the stack. */
void v(int n, float x, ...);
