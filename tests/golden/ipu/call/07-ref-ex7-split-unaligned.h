/* reference/ipu.md section 3.4, example 7. */
void f(int a, long long b);
