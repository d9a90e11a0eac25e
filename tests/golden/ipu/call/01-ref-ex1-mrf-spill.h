/* reference/ipu.md section 3.4, example 1. */
void f(int a, int b, int c, int d, int e, int g);
