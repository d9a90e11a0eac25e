/* Integer and float arguments never compete for registers. */
void f(float a, int b, float c, int d, float e, int g, int h, int i);
