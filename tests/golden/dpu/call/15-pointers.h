/* Data and code pointers, and an array parameter (adjusted to a pointer). */
void* f(int* p, void (*cb)(int), char s[10]);
