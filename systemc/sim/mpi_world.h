// mpi_world.h: the processes of a partitioned run (`mpirun -np R hxsim run CONFIG --partition
// auto`, docs/scale.md): which one this is, and byte messages between them.
//
// mpi_world.cpp is the only file that includes mpi.h. A build without MPI (libopenmpi-dev
// missing when CMake ran) compiles the same class, whose constructor says so: a partitioned run
// is then a clear error (exit code 2).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace hx {

class MpiWorld {
 public:
  /// MPI_Init; MPI_Finalize when the world is destroyed (after finish()). At most one per process.
  /// Throws std::invalid_argument in a build without MPI, std::runtime_error if MPI does not
  /// start.
  MpiWorld();
  ~MpiWorld();
  MpiWorld(const MpiWorld&) = delete;
  MpiWorld& operator=(const MpiWorld&) = delete;

  unsigned rank() const { return rank_; }
  unsigned size() const { return size_; }

  /// Point-to-point messages of bytes, which arrive in the order they were sent between two
  /// ranks. post() starts sending `bytes` to `to` and returns; `bytes` must stay as it is until
  /// wait_posted(). receive() waits for the next message and sizes `bytes` to it.
  void post(unsigned to, const std::vector<uint8_t>& bytes);
  void receive(unsigned from, std::vector<uint8_t>& bytes) const;
  /// Wait until every posted message has gone.
  void wait_posted();
  /// The run ended on every rank: rank 0's exit code `code`, on every rank. After it the world
  /// is finished: the destructor ends MPI in order.
  int finish(int code);
  bool finished() const { return finished_; }
  /// A rank failed: end every rank's process with `code` (MPI_Abort), as the others may wait for
  /// this one. Does not return.
  [[noreturn]] void abort(int code) const;

 private:
  unsigned rank_ = 0, size_ = 1;
  bool finished_ = false;
  struct Posted;  // the requests of post(), in mpi_world.cpp
  std::unique_ptr<Posted> posted_;
};

}  // namespace hx
