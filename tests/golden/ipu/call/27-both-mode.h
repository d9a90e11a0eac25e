/* Code compiled for both modes has no $a file either. */
float f(float a, double b);
