#include "model_cache.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "model_cache_config.h"

namespace hx {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ';'))
    if (!item.empty()) out.push_back(item);
  return out;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw ModelBuildError("model cache: cannot read " + p.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// FNV-1a, 64 bits: a content key, not a security boundary.
class Hash {
 public:
  Hash& add(const std::string& s) {
    for (unsigned char c : s) {
      h_ ^= c;
      h_ *= 1099511628211ull;
    }
    h_ ^= 0xff;  // a separator, so that ("ab", "c") and ("a", "bc") differ
    h_ *= 1099511628211ull;
    return *this;
  }
  std::string hex() const {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h_));
    return buf;
  }

 private:
  uint64_t h_ = 14695981039346656037ull;
};

// Single-quoted for /bin/sh.
std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// The first line of a command's output ("" if it cannot run).
std::string first_line_of(const std::string& cmd) {
  FILE* p = popen((cmd + " 2>/dev/null").c_str(), "r");
  if (p == nullptr) return "";
  char buf[512];
  std::string line = std::fgets(buf, sizeof buf, p) != nullptr ? buf : "";
  pclose(p);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  return line;
}

const std::string& verilator_version() {
  static const std::string v = first_line_of(quote(model_cache_config::kVerilator) + " --version");
  return v;
}

std::vector<std::string> rtl_sources(const std::string& group) {
  if (group == "router") return split(model_cache_config::kRouterSources);
  if (group == "reduction") return split(model_cache_config::kReductionSources);
  throw std::invalid_argument("model cache: no RTL source group '" + group + "' (router, reduction)");
}

// The flags every model file compiles with: the build's, position-independent, the wrapper's
// symbols hidden but its factory, and the defines CMake's verilate() gives a traced model.
std::string compile_flags(const VerilatedBuild& b) {
  std::string f = std::string(model_cache_config::kCxxFlags) +
                  " -std=c++17 -fPIC -fvisibility=hidden -DVM_COVERAGE=0 -DVM_SC=0 -DVM_TRACE_VCD=0 -Iobj" +
                  (b.trace ? " -DVM_TRACE=1 -DVM_TRACE_FST=1" : " -DVM_TRACE=0 -DVM_TRACE_FST=0");
  for (const std::string& d : split(model_cache_config::kVerilatorInclude)) f += " -isystem " + quote(d);
  for (const std::string& d : split(model_cache_config::kSystemInclude)) f += " -isystem " + quote(d);
  for (const std::string& d : b.include) f += " -I" + quote(d);
  return f;
}

std::vector<std::string> verilator_args(const VerilatedBuild& b) {
  std::vector<std::string> a = {"--cc", "--prefix", b.prefix, "--top", b.top, "-y", model_cache_config::kRtlDir};
  if (b.trace) a.push_back("--trace-fst");
  for (const std::string& p : b.params) a.push_back(p);
  for (const std::string& x : split(model_cache_config::kVerilatorArgs)) a.push_back(x);
  for (const std::string& x : b.args) a.push_back(x);
  for (const std::string& s : rtl_sources(b.group)) a.push_back(s);
  return a;
}

std::string key_of(const VerilatedBuild& b) {
  Hash h;
  h.add("hxsim model cache 1").add(b.top).add(b.prefix).add(b.wrapper).add(b.factory);
  for (const std::string& a : verilator_args(b)) h.add(a);
  h.add(verilator_version()).add(model_cache_config::kCxx).add(compile_flags(b));
  for (const std::string& s : rtl_sources(b.group)) h.add(read_file(s));
  // The RTL's include files. The simulator headers the wrapper includes are checked apart
  // (headers_fresh): which they are is known only once it has compiled.
  std::vector<fs::path> headers;
  for (const auto& e : fs::directory_iterator(model_cache_config::kRtlDir))
    if (e.path().extension() == ".svh") headers.push_back(e.path());
  std::sort(headers.begin(), headers.end());
  for (const fs::path& p : headers) h.add(p.filename().string()).add(read_file(p));
  return h.hex();
}

// The simulator's headers the wrapper included, from the compiler's dependency file
// (o/wrapper.d), each with a hash of its content: the entry's headers.txt. Headers outside
// b.include (the standard library, Verilator's, SystemC's) are covered by the key's compiler,
// flags and Verilator version.
void record_headers(const VerilatedBuild& b, const fs::path& dir) {
  std::string deps = read_file(dir / "o" / "wrapper.d");
  for (char& c : deps)
    if (c == '\\' || c == '\n' || c == ':') c = ' ';
  std::istringstream words(deps);
  std::vector<std::string> headers;
  for (std::string w; words >> w;) {
    const fs::path p = fs::weakly_canonical(dir / w);
    for (const std::string& d : b.include)
      if (p.parent_path() == fs::weakly_canonical(d) && p.extension() == ".h") headers.push_back(p.string());
  }
  std::sort(headers.begin(), headers.end());
  headers.erase(std::unique(headers.begin(), headers.end()), headers.end());
  std::ofstream out(dir / "headers.txt");
  for (const std::string& p : headers) out << Hash().add(read_file(p)).hex() << " " << p << "\n";
}

// True if every header the entry's wrapper included still has the content it was built with.
bool headers_fresh(const fs::path& entry) {
  std::ifstream in(entry / "headers.txt");
  if (!in) return false;
  for (std::string line; std::getline(in, line);) {
    const std::size_t space = line.find(' ');  // "<hash> <path>"; the path may hold spaces
    if (space == std::string::npos) return false;
    const std::string path = line.substr(space + 1);
    std::error_code ec;
    if (!fs::exists(path, ec) || Hash().add(read_file(path)).hex() != line.substr(0, space)) return false;
  }
  return true;
}

// The entry holds a library built from what the simulator's headers are now.
bool entry_ready(const fs::path& entry) { return fs::exists(entry / "model.so") && headers_fresh(entry); }

// An exclusive lock on a file, released when the object goes.
class FileLock {
 public:
  explicit FileLock(const fs::path& p) : fd_(::open(p.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ < 0) throw ModelBuildError("model cache: cannot open the lock " + p.string());
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      std::cerr << "hxsim: waiting for another process building the same model (" << p.string() << ")\n";
      if (::flock(fd_, LOCK_EX) != 0) throw ModelBuildError("model cache: cannot lock " + p.string());
    }
  }
  ~FileLock() { ::close(fd_); }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_;
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The generated makefile: every file of the model and the wrapper compiled on its own (make -j),
// the model's initialisation and tracing code (…__Slow, …__Trace…) at -O1, as Verilator's own
// makefiles compile their slow path with lighter optimisation: it runs once, or only when a
// waveform is written, and is most of the code.
std::string makefile(const VerilatedBuild& b) {
  std::ostringstream m;
  m << "CXX := " << quote(model_cache_config::kCxx) << "\n"
    << "FLAGS := " << compile_flags(b) << "\n"
    << "SRCS := $(wildcard obj/*.cpp) wrapper.cpp\n"
    << "OBJS := $(patsubst %.cpp,o/%.o,$(notdir $(SRCS)))\n"
    << "vpath %.cpp obj .\n"
    << "model.so: $(OBJS)\n"
    << "\t@$(CXX) -shared -o $@ $(OBJS) >>build.log 2>&1\n"
    << "o/%.o: %.cpp | o\n"
    << "\t@$(CXX) $(FLAGS) $(if $(findstring __Slow,$*)$(findstring __Trace,$*),-O1,) -MMD -c $< -o $@ >>build.log "
       "2>&1\n"
    << "\t@echo compiled $<\n"
    << "o:\n\t@mkdir -p o\n";
  return m.str();
}

// Build `b` into `dir` (a scratch directory). Progress to stderr; the tools' output to build.log.
void build(const VerilatedBuild& b, const fs::path& dir) {
  const auto t0 = std::chrono::steady_clock::now();
  const bool tty = ::isatty(STDERR_FILENO) != 0;
  const fs::path log = dir / "build.log";
  std::cerr << "hxsim: " << b.what << " is not built yet: building it once into the model cache ("
            << dir.parent_path().string() << ")\n";

  std::string vcmd = "cd " + quote(dir.string()) + " && " + quote(model_cache_config::kVerilator) + " --Mdir obj";
  for (const std::string& a : verilator_args(b)) vcmd += " " + quote(a);
  std::cerr << "hxsim:   Verilating " << b.top << " (" << verilator_version() << ")\n";
  if (std::system((vcmd + " >build.log 2>&1").c_str()) != 0)
    throw ModelBuildError("Verilator failed building " + b.what + "; its output: " + log.string());

  {
    std::ofstream(dir / "wrapper.cpp") << b.wrapper;
    std::ofstream(dir / "Makefile") << makefile(b);
  }
  std::size_t files = 1;  // the wrapper
  for (const auto& e : fs::directory_iterator(dir / "obj"))
    if (e.path().extension() == ".cpp") ++files;
  const long jobs = std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN));
  std::cerr << "hxsim:   compiling " << files << " C++ files on " << jobs << " job" << (jobs > 1 ? "s" : "") << "\n";
  const std::string mcmd = "cd " + quote(dir.string()) + " && make -s -j" + std::to_string(jobs) + " model.so";
  FILE* p = popen(mcmd.c_str(), "r");
  if (p == nullptr) throw ModelBuildError("model cache: cannot run make for " + b.what);
  char buf[1024];
  std::size_t done = 0;
  auto last = std::chrono::steady_clock::now();
  while (std::fgets(buf, sizeof buf, p) != nullptr) {
    if (std::string(buf).rfind("compiled ", 0) != 0) continue;
    ++done;
    // On a terminal one line rewritten in place; in a log a line every 20 s.
    if (tty) {
      std::cerr << "\rhxsim:   compiled " << done << "/" << files << " files, " << static_cast<int>(seconds_since(t0))
                << " s" << std::flush;
    } else if (std::chrono::duration<double>(std::chrono::steady_clock::now() - last).count() > 20) {
      std::cerr << "hxsim:   compiled " << done << "/" << files << " files, " << static_cast<int>(seconds_since(t0))
                << " s\n";
      last = std::chrono::steady_clock::now();
    }
  }
  if (tty) std::cerr << "\n";
  if (pclose(p) != 0 || !fs::exists(dir / "model.so"))
    throw ModelBuildError("the C++ compiler failed building " + b.what + "; its output: " + log.string());
  record_headers(b, dir);
  // Only the library and the log are kept: the generated C++ and objects are most of the space.
  fs::remove_all(dir / "obj");
  fs::remove_all(dir / "o");
  std::cerr << "hxsim:   built " << b.what << " in " << static_cast<int>(seconds_since(t0) + 0.5) << " s\n";
}

}  // namespace

std::string model_cache_dir() {
  fs::path root;
  if (const char* c = std::getenv("HXSIM_CACHE"); c != nullptr && *c != '\0') {
    root = c;
  } else if (const char* x = std::getenv("XDG_CACHE_HOME"); x != nullptr && *x != '\0') {
    root = fs::path(x) / "hxsim";
  } else if (const char* h = std::getenv("HOME"); h != nullptr && *h != '\0') {
    root = fs::path(h) / ".cache" / "hxsim";
  } else {
    root = fs::temp_directory_path() / ("hxsim-cache-" + std::to_string(::getuid()));
  }
  std::error_code ec;
  fs::create_directories(root, ec);
  if (ec) throw ModelBuildError("model cache: cannot create " + root.string() + ": " + ec.message());
  return root.string();
}

std::string model_cache_entry(const VerilatedBuild& b) {
  return (fs::path(model_cache_dir()) / (b.prefix + "-" + key_of(b))).string();
}

bool model_cached(const VerilatedBuild& b) { return entry_ready(model_cache_entry(b)); }

void* load_cached_model(const VerilatedBuild& b) {
  // One load per library and process, whoever asks.
  static std::mutex mu;
  static std::map<std::string, void*> loaded;
  const std::lock_guard<std::mutex> guard(mu);
  const fs::path entry = model_cache_entry(b);
  if (auto it = loaded.find(entry.string()); it != loaded.end()) return it->second;

  const fs::path lib = entry / "model.so";
  if (!entry_ready(entry)) {
    const FileLock lock(entry.string() + ".lock");
    if (!entry_ready(entry)) {  // nobody built it while this process waited for the lock
      const fs::path scratch = entry.string() + ".tmp" + std::to_string(::getpid());
      fs::remove_all(scratch);
      fs::create_directories(scratch);
      try {
        build(b, scratch);
      } catch (...) {
        // Keep the log where the message says it is; drop the rest.
        fs::remove_all(scratch / "obj");
        fs::remove_all(scratch / "o");
        throw;
      }
      fs::remove_all(entry);
      fs::rename(scratch, entry);
    }
  }
  void* handle = ::dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr)
    throw ModelBuildError("cannot load " + b.what + " from " + lib.string() + ": " + ::dlerror() +
                          " (delete that directory to rebuild it)");
  void* factory = ::dlsym(handle, b.factory.c_str());
  if (factory == nullptr)
    throw ModelBuildError(lib.string() + " has no " + b.factory + " (delete that directory to rebuild it)");
  loaded.emplace(entry.string(), factory);
  return factory;
}

}  // namespace hx
