/* reference/dpu.md section 3, worked example 7: printf(fmt, i, d, j). */
int printf(const char* fmt, ...);
