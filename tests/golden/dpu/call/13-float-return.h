/* A float return value is a word in r0. */
float f(double a);
