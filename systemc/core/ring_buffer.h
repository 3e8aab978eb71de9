// ring_buffer.h: a fixed-capacity FIFO for the per-cycle path of the benches.
//
// The capacity is set once (constructor or reset_capacity) and never grows, so pushing and
// popping allocate nothing; push() on a full buffer returns false and leaves it unchanged.
#pragma once

#include <cassert>
#include <cstddef>
#include <vector>

namespace hx {

template <class T>
class RingBuffer {
 public:
  explicit RingBuffer(std::size_t capacity = 0) : slots_(capacity) {}

  /// Drop the contents and set a new capacity (allocates; not for the per-cycle path).
  void reset_capacity(std::size_t capacity) {
    slots_.assign(capacity, T{});
    head_ = 0;
    size_ = 0;
  }

  std::size_t capacity() const { return slots_.size(); }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool full() const { return size_ == slots_.size(); }

  bool push(const T& v) {
    if (full()) return false;
    slots_[(head_ + size_) % slots_.size()] = v;
    ++size_;
    return true;
  }

  T& front() {
    assert(!empty());
    return slots_[head_];
  }
  const T& front() const {
    assert(!empty());
    return slots_[head_];
  }

  void pop() {
    assert(!empty());
    head_ = (head_ + 1) % slots_.size();
    --size_;
  }

  /// Element i counted from the front (0 = front).
  const T& at(std::size_t i) const {
    assert(i < size_);
    return slots_[(head_ + i) % slots_.size()];
  }

  void clear() {
    head_ = 0;
    size_ = 0;
  }

 private:
  std::vector<T> slots_;
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};

}  // namespace hx
