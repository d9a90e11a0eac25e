/* A half extra argument is promoted to double before the call. */
void v(int n, ...);
