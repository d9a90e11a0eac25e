/* reference/ipu.md section 3.4, example 8. */
void f(int a, int b, int c, long long d);
