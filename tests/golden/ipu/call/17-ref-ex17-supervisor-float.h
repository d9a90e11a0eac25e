/* reference/ipu.md section 3.4, example 17 (supervisor). */
float f(float a, int b);
