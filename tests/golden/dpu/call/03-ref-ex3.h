/* reference/dpu.md section 3, worked example 3. */
void f(int a, int b, int c, long long d, int e);
