/* half parameters need the worker driver flags. */
void f(__fp16 h);
__fp16 g(void);
