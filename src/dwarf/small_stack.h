// A stack whose first N entries live inline: the nesting of DW_OP_entry_value expressions costs
// no allocation up to that depth, and deeper nesting (any depth) spills to the heap.
#pragma once

#include <cstddef>
#include <vector>

namespace abikit::dwarf::detail {

template <class T, size_t N> class SmallStack {
public:
  bool empty() const { return n_ == 0; }
  size_t size() const { return n_; }
  T& back() { return n_ <= N ? inline_[n_ - 1] : more_.back(); }
  const T& back() const { return n_ <= N ? inline_[n_ - 1] : more_.back(); }
  void push(const T& v) {
    if (n_ < N)
      inline_[n_] = v;
    else
      more_.push_back(v);
    ++n_;
  }
  void pop() {
    if (n_ > N) more_.pop_back();
    --n_;
  }

private:
  T inline_[N];
  std::vector<T> more_;
  size_t n_ = 0;
};

} // namespace abikit::dwarf::detail
