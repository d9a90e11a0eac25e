/* reference/dpu.md section 3, worked example 8. */
void f(int a, long long b, long long c, long long d, int e, int g, int h, int i);
