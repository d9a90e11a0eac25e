/* reference/dpu.md section 3, worked example 2. */
void f(long long a, int b, long long c, int d);
