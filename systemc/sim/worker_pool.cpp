#include "worker_pool.h"

#include <chrono>

namespace hx {

WorkerPool::WorkerPool(unsigned workers, unsigned items, std::function<void(unsigned)> task)
    : items_(items), task_(std::move(task)) {
  next_.store(items_);  // nothing to take before the first start()
  for (unsigned i = 0; i < workers; ++i) threads_.emplace_back([this] { worker_loop(); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> l(m_);
    quit_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void WorkerPool::start() {
  done_.store(0, std::memory_order_relaxed);
  // The release store publishes everything written before, done_ included, to whoever takes
  // an item (an acquire read-modify-write of next_).
  next_.store(0, std::memory_order_release);
  {
    std::lock_guard<std::mutex> l(m_);
    ++round_;
  }
  wake_.notify_all();
}

void WorkerPool::work() {
  for (;;) {
    const unsigned i = next_.fetch_add(1, std::memory_order_acq_rel);
    if (i >= items_) return;
    try {
      task_(i);
    } catch (...) {
      std::lock_guard<std::mutex> l(m_);
      if (!error_) error_ = std::current_exception();
    }
    if (done_.fetch_add(1, std::memory_order_acq_rel) + 1 == items_) {
      // The last item: wake finish() if it sleeps. Taking the lock orders this with its check.
      { std::lock_guard<std::mutex> l(m_); }
      idle_.notify_one();
    }
  }
}

void WorkerPool::worker_loop() {
  uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> l(m_);
      wake_.wait(l, [&] { return quit_ || round_ != seen; });
      if (quit_) return;
      seen = round_;
    }
    work();  // a worker that wakes late finds nothing left, or helps with a later round
  }
}

void WorkerPool::finish() {
  work();
  // Items still in progress on workers: usually one plane, a few microseconds away.
  const auto spin_until = std::chrono::steady_clock::now() + std::chrono::microseconds(50);
  while (done_.load(std::memory_order_acquire) < items_ && std::chrono::steady_clock::now() < spin_until) {
  }
  if (done_.load(std::memory_order_acquire) < items_) {
    std::unique_lock<std::mutex> l(m_);
    idle_.wait(l, [&] { return done_.load(std::memory_order_acquire) >= items_; });
  }
  std::exception_ptr e;
  {
    std::lock_guard<std::mutex> l(m_);
    std::swap(e, error_);
  }
  if (e) std::rethrow_exception(e);
}

}  // namespace hx
