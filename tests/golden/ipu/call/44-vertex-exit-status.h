/* Codelets returning an exit status. */
__attribute__((colossus_vertex)) int v(void);
__attribute__((colossus_vertex)) _Bool w(void);
