// A counting replacement of the global operator new/delete for the benchmarks that report heap
// allocations per operation (the issues ask for none after warm-up). Include it in exactly one
// source file of a benchmark executable: the operators are definitions.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace abikit::bench {
inline std::atomic<uint64_t> g_allocations{0};
} // namespace abikit::bench

// The replaced operators pair malloc with free; GCC's -Wmismatched-new-delete sees operator new
// and free() in one inlined function and does not know they are these replacements.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void* operator new(size_t n) {
  abikit::bench::g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, size_t) noexcept {
  std::free(p);
}
