typedef float float3 __attribute__((ext_vector_type(3)));
struct ext3 {
  char c;
  float3 v;
};
