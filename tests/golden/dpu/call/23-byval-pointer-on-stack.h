/* An aggregate argument after eight words: its pointer goes to the stack. */
struct P {
  int x;
};
void f(int a, int b, int c, int d, int e, int g, int h, int i, struct P p);
