#include "mpi_world.h"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#ifdef HX_HAVE_MPI
// The C API only: MPI's C++ bindings are deprecated and need their own library.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#endif

namespace hx {

#ifdef HX_HAVE_MPI

namespace {
void check(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw std::runtime_error(std::string(what) + ": " + std::string(text, static_cast<std::size_t>(len)));
}
constexpr int kTag = 0x6878;  // "hx": the boundary's messages, in order per pair of ranks
}  // namespace

struct MpiWorld::Posted {
  std::vector<MPI_Request> requests;
};

MpiWorld::MpiWorld() : posted_(std::make_unique<Posted>()) {
  int started = 0;
  MPI_Initialized(&started);
  if (started != 0) throw std::runtime_error("MPI is started already: one partitioned run per process");
  check(MPI_Init(nullptr, nullptr), "MPI_Init");
  // Errors come back as codes (check() turns them into exceptions) rather than aborting the job.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int r = 0, n = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  rank_ = static_cast<unsigned>(r);
  size_ = static_cast<unsigned>(n);
}

MpiWorld::~MpiWorld() {
  if (finished_) MPI_Finalize();  // else the process ends without: abort() is the way out
}

void MpiWorld::post(unsigned to, const std::vector<uint8_t>& bytes) {
  MPI_Request r;
  check(
      MPI_Isend(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, static_cast<int>(to), kTag, MPI_COMM_WORLD, &r),
      "MPI_Isend");
  posted_->requests.push_back(r);
}

void MpiWorld::wait_posted() {
  check(MPI_Waitall(static_cast<int>(posted_->requests.size()), posted_->requests.data(), MPI_STATUSES_IGNORE),
        "MPI_Waitall");
  posted_->requests.clear();
}

void MpiWorld::receive(unsigned from, std::vector<uint8_t>& bytes) const {
  MPI_Status st;
  check(MPI_Probe(static_cast<int>(from), kTag, MPI_COMM_WORLD, &st), "MPI_Probe");
  int n = 0;
  MPI_Get_count(&st, MPI_BYTE, &n);
  bytes.resize(static_cast<std::size_t>(n));
  check(MPI_Recv(bytes.data(), n, MPI_BYTE, static_cast<int>(from), kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
        "MPI_Recv");
}

int MpiWorld::finish(int code) {
  check(MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Bcast");
  finished_ = true;
  return code;
}

void MpiWorld::abort(int code) const {
  std::fflush(stdout);
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);  // MPI_Abort does not return; this says so to the compiler
}

#else  // a build without MPI

struct MpiWorld::Posted {};
MpiWorld::MpiWorld() {
  throw std::invalid_argument(
      "--partition: this hxsim was built without MPI (install libopenmpi-dev, scripts/setup-deps.sh does, and "
      "configure again)");
}
MpiWorld::~MpiWorld() = default;
void MpiWorld::receive(unsigned, std::vector<uint8_t>&) const {}
void MpiWorld::post(unsigned, const std::vector<uint8_t>&) {}
void MpiWorld::wait_posted() {}
int MpiWorld::finish(int code) { return code; }
void MpiWorld::abort(int code) const { std::_Exit(code); }

#endif

}  // namespace hx
