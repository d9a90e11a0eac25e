/* Vertex functions take no parameters. */
__attribute__((colossus_vertex)) int v(int x);
