/* C default argument promotions before the stack slots. */
void v(int n, ...);
