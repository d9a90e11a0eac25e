/* long is 8 bytes on the DPU. */
long f(long a, int b, unsigned long c);
