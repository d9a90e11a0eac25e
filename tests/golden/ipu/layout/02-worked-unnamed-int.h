/* ipu.md section 1, worked example 2 (x86-64 SysV would give 2/1). */
struct unnamed_int {
  char a;
  int : 4;
};
