typedef int v4si __attribute__((vector_size(16)));
typedef char v3qi __attribute__((vector_size(3)));
typedef float f3 __attribute__((ext_vector_type(3)));
struct vectors {
  char c;
  v4si v;
  v3qi w;
  f3 x;
};
