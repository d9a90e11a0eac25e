/* Supervisor code: floats compete with ints for $m0-$m3. */
void f(float a, int b, float c, float d, float e);
