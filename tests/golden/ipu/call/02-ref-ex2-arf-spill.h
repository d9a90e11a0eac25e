/* reference/ipu.md section 3.4, example 2 (worker mode). */
void f(float f1, float f2, float f3, float f4, float f5, float f6, float f7, float f8);
