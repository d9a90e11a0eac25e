/* Seed: 64-bit parameters in aligned pairs, no back-filling. */
void f(int a, long long b, int c, double d, float e);
