/* Fixed stack arguments of a variadic function. */
void v(int a, int b, int c, int d, int e, int g, int h, int i, int j, ...);
