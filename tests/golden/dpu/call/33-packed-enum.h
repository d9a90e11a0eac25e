/* A packed enum has a 1-byte underlying type. */
enum __attribute__((packed)) PE { P0, P1 };
void f(enum PE e);
enum PE g(void);
