/* Documented variant in supervisor code. */
double f(float a, double b, int c);
