// fifo.h: the one FIFO of hxsim's models and benches.
//
// Two layers, one ring logic:
//   Ring<I>   the ring arithmetic alone: a head index and a count, over `capacity` slots that
//             its owner holds. It says which slot push() fills and which pop() frees, and wraps
//             by one compare (no modulo). Its indices are of type I, so a bank of rings that
//             share one capacity can keep its bookkeeping in a few bytes per ring.
//   Fifo<T>   a Ring over its own vector of slots, allocated up front.
// Every queue in the models is one of these: a Fifo<T>, or, where several queues share one
// allocation and one cache line of bookkeeping, a bank of Rings over one slot array (the fabric
// switch's per-VC buffers, fabric/vc_buffer.h).
//
// A hardware queue has a fixed depth: push() on a full FIFO returns false and leaves it
// unchanged, so the caller decides what overflow means (back-pressure, or a logic error). Some
// model queues stand for memory that is not sized in hardware terms (a GPU's DMA requests waiting
// for room on a link, packets in a switch input that credits bound but whose bound the model does
// not restate); those are made with Overflow::Grow and double their slots when full, which
// allocates only while a run reaches a new high-water mark, never in its steady state. Either way
// the per-cycle path does no allocation once the FIFO is warm.
#pragma once

#include <cassert>
#include <cstddef>
#include <utility>
#include <vector>

namespace hx {

/// Head and count of a ring over `capacity` slots held elsewhere; every call that moves an
/// index takes the capacity. The owner checks full() before push() and empty() before pop().
template <class I>
struct Ring {
  I head = 0;   ///< slot of the front entry
  I count = 0;  ///< entries held

  bool empty() const { return count == 0; }
  bool full(std::size_t capacity) const { return count == capacity; }

  /// Slot of entry i counted from the front (0 = front; i == count: the slot push() fills next).
  std::size_t slot(std::size_t i, std::size_t capacity) const {
    std::size_t k = head + i;
    if (k >= capacity) k -= capacity;
    return k;
  }
  /// Takes the slot behind the last entry and returns it; the caller stores into it.
  std::size_t push(std::size_t capacity) {
    assert(count < capacity);
    const std::size_t k = slot(count, capacity);
    ++count;
    return k;
  }
  /// Frees the front slot.
  void pop(std::size_t capacity) {
    assert(count != 0);
    if (++head == capacity) head = 0;
    --count;
  }
  void clear() {
    head = 0;
    count = 0;
  }
};

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
    ring_.clear();
  }

  std::size_t capacity() const { return slots_.size(); }
  std::size_t size() const { return ring_.count; }
  bool empty() const { return ring_.empty(); }
  bool full() const { return ring_.full(slots_.size()); }

  /// Appends v; false (and nothing stored) when full and the FIFO does not grow.
  template <class U>
  bool push(U&& v) {
    if (full()) {
      if (overflow_ == Overflow::Refuse) return false;
      grow();
    }
    slots_[ring_.push(slots_.size())] = std::forward<U>(v);
    return true;
  }

  T& front() {
    assert(!empty());
    return slots_[ring_.head];
  }
  const T& front() const {
    assert(!empty());
    return slots_[ring_.head];
  }

  void pop() { ring_.pop(slots_.size()); }

  /// Element i counted from the front (0 = front).
  const T& at(std::size_t i) const {
    assert(i < size());
    return slots_[ring_.slot(i, slots_.size())];
  }

  void clear() { ring_.clear(); }

 private:
  // Twice the slots (at least 4), the contents moved to the front in order.
  void grow() {
    std::vector<T> bigger(slots_.empty() ? 4 : 2 * slots_.size());
    for (std::size_t i = 0; i < ring_.count; ++i) bigger[i] = std::move(slots_[ring_.slot(i, slots_.size())]);
    slots_.swap(bigger);
    ring_.head = 0;
  }

  std::vector<T> slots_;
  Ring<std::size_t> ring_;
  Overflow overflow_;
};

}  // namespace hx
