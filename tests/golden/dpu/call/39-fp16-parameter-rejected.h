/* __fp16 parameters and returns need -fallow-half-arguments-and-returns. */
void f(__fp16 h);
__fp16 g(void);
