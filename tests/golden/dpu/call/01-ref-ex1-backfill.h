/* reference/dpu.md section 3, worked example 1. */
void f(int a, long long b, int c);
