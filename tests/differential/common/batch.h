// The one "compile a batch, drop what the oracle rejected, retry" loop of the differential
// tests. Generated cases are compiled by the oracle compiler many at a time; when the compiler
// rejects the batch and names the cases it rejected (by the line of its error), those cases are
// dropped (their verdicts say why) and the rest compiled again, at most `attempts` times. When it
// names none of the cases left, every one of them is marked rejected.
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace abikit::oracle {

/// Compiles `cases` in batches as above. `compile(batch, ids, rejected)` compiles and judges
/// `batch`, the cases at the indices `ids` of `cases`, and returns true when the oracle accepted
/// it; otherwise false, with the indices (into `cases`) it rejected in `rejected`.
/// `markRejected(i)` is called for each case left when the oracle named none of them.
template <class Case, class Compile, class MarkRejected>
void compileDroppingRejected(const std::vector<Case>& cases, Compile&& compile,
                             MarkRejected&& markRejected, int attempts = 4) {
  std::vector<size_t> live(cases.size());
  for (size_t i = 0; i < live.size(); ++i) live[i] = i;
  for (int attempt = 0; attempt < attempts && !live.empty(); ++attempt) {
    std::vector<Case> batch;
    batch.reserve(live.size());
    for (size_t i : live) batch.push_back(cases[i]);
    std::vector<size_t> rejected;
    if (compile(batch, live, rejected)) return;
    std::vector<size_t> next;
    for (size_t i : live)
      if (std::find(rejected.begin(), rejected.end(), i) == rejected.end()) next.push_back(i);
    if (next.size() == live.size()) {
      for (size_t i : live) markRejected(i);
      return;
    }
    live = std::move(next);
  }
}

} // namespace abikit::oracle
