/* long is the same as int on the IPU. */
long f(long a, unsigned long b, long long c);
