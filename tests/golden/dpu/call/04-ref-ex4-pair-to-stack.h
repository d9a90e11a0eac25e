/* reference/dpu.md section 3, worked example 4. */
void f(int a0, int a1, int a2, int a3, int a4, int a5, int a6, long long x, int y);
