/* reference/ipu.md section 3.4, example 3: five ints and seven floats interleaved. */
void f(int i1, float f1, int i2, float f2, int i3, float f3, int i4, float f4, int i5, float f5,
       float f6, float f7);
