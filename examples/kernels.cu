/* kernels.cu: CUDA-style kernel declarations.
 *
 *   abikit ptx --target nvptx64-nvidia-cuda -mcpu=sm_80 examples/kernels.cu
 *   abikit call --target nvptx64-nvidia-cuda examples/kernels.cu --json
 */
#include <stdint.h>

struct matrix_view {
  float* data;
  int32_t rows, cols;
  int64_t stride;
};

__global__ void gemm(struct matrix_view a, struct matrix_view b, struct matrix_view c, float alpha,
                     float beta);
__global__ void fill(uint8_t* bytes, uint8_t value, uint64_t count);
__device__ float dot3(const float* x, const float* y);
__device__ struct matrix_view transpose(struct matrix_view m);
