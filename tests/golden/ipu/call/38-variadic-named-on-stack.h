/* Named parameters of a variadic function are on the stack too. */
void v(int a, float b, long long c, ...);
