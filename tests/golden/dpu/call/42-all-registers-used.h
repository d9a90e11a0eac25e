/* Pairs fill every argument register. */
void f(long long a, long long b, long long c, long long d, long long e, int f1, int f2, int f3);
