/* reference/dpu.md section 3, worked example 5. */
void f(long long a, long long b, long long c, long long d, int e, long long g, int h);
