/* reference/dpu.md section 3, worked example 6. */
struct S3 {
  int x, y, z;
};
struct S3 g(long long a, int b);
