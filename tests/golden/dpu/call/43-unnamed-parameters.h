/* Prototype without parameter names. */
void f(int, double, char);
