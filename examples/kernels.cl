/* kernels.cl: OpenCL C kernels (long is 64-bit, float4 and uchar are built in). What does the
 * kernel argument segment look like, and which PTX entry points does a compiler emit?
 *
 *   abikit kernarg --target amdgcn-amd-amdhsa -mcpu=gfx90a examples/kernels.cl
 *   abikit kernarg --target amdgcn-amd-amdhsa -mcpu=gfx906 -mcode-object-version=4 \
 *       examples/kernels.cl --kernel scale --json
 *   abikit ptx --target nvptx64-nvidia-cuda -mcpu=sm_75 examples/kernels.cl
 *   abikit layout --target amdgcn-amd-amdhsa examples/kernels.cl --record particle
 */

typedef struct {
  float4 position;
  float4 velocity;
  uchar alive;
} particle;

typedef struct {
  uint count;
  float dt;
  long seed;
} step_params;

__kernel void scale(__global float* out, __global const float* in, float factor, uint n);

__kernel void step(__global particle* particles, step_params params, __local float4* scratch,
                   __constant float* gravity);

__kernel void histogram(__global const uchar* bytes, ulong length, __global uint* bins,
                        char4 mask, short bias);

float4 integrate(float4 p, float4 v, float dt);
