// Records a host shares with devices: each one differs somewhere (abikit compat).
typedef int cl_int;
typedef long long cl_long;
struct kernel_args {
  cl_int n;
  cl_long total;
};
struct sample {
  float v __attribute__((vector_size(64)));
  char tag;
};
struct params {
  long double scale;
  int count;
};
