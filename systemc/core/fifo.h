// fifo.h: the one FIFO of hxsim's models and benches: a ring of slots allocated up front.
//
// A hardware queue has a fixed depth: push() on a full FIFO returns false and leaves it
// unchanged, so the caller decides what overflow means (back-pressure, or a logic error). Some
// model queues stand for memory that is not sized in hardware terms (a GPU's DMA requests waiting
// for room on a link, packets in a switch input that credits bound but whose bound the model does
// not restate); those are made with Overflow::Grow and double their slots when full, which
// allocates only while a run reaches a new high-water mark, never in its steady state. Either way
// the per-cycle path does no allocation once the FIFO is warm, and no modulo: the index wraps by
// one compare.
//
// The fabric switch's input buffers are a bank of per-VC queues in one allocation with ready
// cycles (fabric/vc_buffer.h); everything else that queues uses this.
#pragma once

#include <cassert>
#include <cstddef>
#include <utility>
#include <vector>

namespace hx {

template <class T>
class Fifo {
 public:
  enum class Overflow { Refuse, Grow };

  explicit Fifo(std::size_t capacity = 0, Overflow overflow = Overflow::Refuse)
      : slots_(capacity), overflow_(overflow) {}
  /// An empty FIFO that grows as it fills.
  static Fifo growing() { return Fifo(0, Overflow::Grow); }

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

  /// Appends v; false (and nothing stored) when full and the FIFO does not grow.
  template <class U>
  bool push(U&& v) {
    if (full()) {
      if (overflow_ == Overflow::Refuse) return false;
      grow();
    }
    std::size_t tail = head_ + size_;
    if (tail >= slots_.size()) tail -= slots_.size();
    slots_[tail] = std::forward<U>(v);
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
    if (++head_ == slots_.size()) head_ = 0;
    --size_;
  }

  /// Element i counted from the front (0 = front).
  const T& at(std::size_t i) const {
    assert(i < size_);
    std::size_t k = head_ + i;
    if (k >= slots_.size()) k -= slots_.size();
    return slots_[k];
  }

  void clear() {
    head_ = 0;
    size_ = 0;
  }

 private:
  // Twice the slots (at least 4), the contents moved to the front in order.
  void grow() {
    std::vector<T> bigger(slots_.empty() ? 4 : 2 * slots_.size());
    for (std::size_t i = 0; i < size_; ++i) {
      std::size_t k = head_ + i;
      if (k >= slots_.size()) k -= slots_.size();
      bigger[i] = std::move(slots_[k]);
    }
    slots_.swap(bigger);
    head_ = 0;
  }

  std::vector<T> slots_;
  std::size_t head_ = 0;
  std::size_t size_ = 0;
  Overflow overflow_;
};

}  // namespace hx
