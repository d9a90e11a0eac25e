/* An L on the stack does not push later words to the stack. */
void f(int a, long long b, long long c, long long d, long long e, int g, int h);
