/* The processor does not change the convention. */
void f(int a, long long b, float c);
