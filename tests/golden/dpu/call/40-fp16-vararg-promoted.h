/* An __fp16 extra argument is promoted to double. */
void v(int n, ...);
