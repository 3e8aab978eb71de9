// worker_pool.h: independent work items of one cycle, run on worker threads.
//
// A component whose per-cycle work falls into independent items (the board planes: each plane
// reads only what its links deliver in cycle t and writes only what they carry from cycle t+1
// on) hands them to the pool with start() and returns to the SystemC kernel at once, so that
// the other components of the cycle run on the main thread meanwhile. finish() then has the
// calling thread take the items no worker has started, and waits for those in progress. Which
// thread runs which item does not matter to the result; only the time changes.
//
// The item count is fixed. The pool is used by one thread at a time (the SystemC thread):
// start(), then finish(), then start() again. finish() rethrows the first exception an item
// threw. A worker waits for work asleep, so an idle pool costs no CPU time; finish() spins for
// a short while before it sleeps, because the item it waits for is usually almost done.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace hx {

class WorkerPool {
 public:
  /// `workers` threads besides the caller, running task(i) for the items i in [0, items).
  WorkerPool(unsigned workers, unsigned items, std::function<void(unsigned)> task);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  /// Start the items; returns at once. Everything the caller wrote before is visible to them.
  void start();
  /// Run what is left on this thread, wait for the rest; everything the items wrote is then
  /// visible here.
  void finish();

 private:
  void work();  // take items until none is left
  void worker_loop();

  const unsigned items_;
  const std::function<void(unsigned)> task_;
  std::atomic<unsigned> next_{0};  // the next item to take
  std::atomic<unsigned> done_{0};  // items finished in this round
  std::mutex m_;
  std::condition_variable wake_, idle_;
  uint64_t round_ = 0;        // under m_: incremented by start()
  bool quit_ = false;         // under m_
  std::exception_ptr error_;  // under m_
  std::vector<std::thread> threads_;
};

}  // namespace hx
