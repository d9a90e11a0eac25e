// The heap of one CLI run: set up for the memory a large input will need.
#include "cli.h"

#include <sys/stat.h>

#if defined(__linux__) && defined(__GLIBC__)
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#define ABIKIT_TUNE_HEAP 1
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#undef ABIKIT_TUNE_HEAP
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) ||                         \
    __has_feature(thread_sanitizer)
#undef ABIKIT_TUNE_HEAP
#endif
#endif

namespace abikit::cli {

#ifdef ABIKIT_TUNE_HEAP
namespace {
void* volatile gap_block = nullptr; // see reserveHeap(); kept (reachable) until exit
}
#endif

size_t inputSize(const std::string& path) {
  struct stat st;
  if (path == "-" || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return 0;
  return size_t(st.st_size);
}

void reserveHeap(size_t bytes) {
#ifdef ABIKIT_TUNE_HEAP
  // The front-end allocates a few bytes of records, types, fields and identifiers per byte of
  // text and frees little before the end. Touching that memory in 4 KiB pages costs one page
  // fault each (5,400 for the 3 MB benchmark header: 15% of the run's cycles, and more TLB
  // misses in the parser); in 2 MiB pages, a dozen.
  // So: keep large blocks in the heap (malloc would map and unmap each one), never give memory
  // back (the process is short-lived), grow the heap once by the expected size, and ask for
  // transparent huge pages on it. Memory the run does not touch costs address space only.
  constexpr size_t kHugePage = size_t(2) << 20;
  if (bytes < kHugePage) return; // too small to fill a huge page
  if (bytes > (size_t(1) << 30)) bytes = size_t(1) << 30;
  mallopt(M_MMAP_THRESHOLD, 32 << 20); // the largest value glibc accepts
  mallopt(M_TRIM_THRESHOLD, INT_MAX);
  mallopt(M_TOP_PAD, int(bytes));
  auto* before = static_cast<char*>(sbrk(0));
  // More than the top of the heap holds: it grows. (Through a volatile pointer: the compiler
  // may drop a malloc whose block is not used.)
  void* volatile block = std::malloc(kHugePage);
  auto* after = static_cast<char*>(sbrk(0));
  auto start = reinterpret_cast<uintptr_t>(static_cast<void*>(block));
  std::free(block);
  if (start == 0 || before == reinterpret_cast<char*>(-1) || after <= before) {
    mallopt(M_TOP_PAD, 128 << 10); // the heap could not grow: back to glibc's default
    return;
  }
  // Huge pages from the first 2 MiB boundary after the end of `block` (malloc wrote a header
  // there; a range with a page already in place would stay in 4 KiB pages) to the end.
  auto end = reinterpret_cast<uintptr_t>(after);
  if (start > end || end - start < kHugePage) return; // not from the heap's growth
  uintptr_t lo = (start + kHugePage + 64 + kHugePage - 1) & ~(kHugePage - 1);
  uintptr_t hi = end & ~(kHugePage - 1);
  if (hi <= lo || madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE) != 0) return;
  // The free block at the top of the heap starts where `block` did again. A block that is
  // never touched fills the gap up to `lo`, so that what the run allocates next comes from
  // the huge pages.
  gap_block = std::malloc(lo - start);
#else
  (void)bytes;
#endif
}

} // namespace abikit::cli
