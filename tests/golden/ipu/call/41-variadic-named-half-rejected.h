/* A half named parameter of a variadic function. */
void v(__fp16 h, ...);
