/* reference/ipu.md section 3.4, example 4 (supervisor). */
void f(double x, double y, double z, double w);
