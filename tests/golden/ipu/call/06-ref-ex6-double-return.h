/* reference/ipu.md section 3.4, example 6. */
double f(float x);
