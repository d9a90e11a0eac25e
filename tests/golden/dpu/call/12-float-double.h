/* Soft-float: float is a word, double and long double are double-words. */
double f(float x, double y, long double z);
