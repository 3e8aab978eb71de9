#include "sweep.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "config_reader.h"
#include "network_models.h"
#include "nlohmann/json.hpp"
#include "text_file.h"

namespace hx::sweep {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

namespace {

constexpr std::size_t kMaxPoints = 100000;

// "p0007": four digits at least (kMaxPoints has six).
std::string point_dir(std::size_t i) {
  const std::string n = std::to_string(i);
  return "p" + std::string(n.size() < 4 ? 4 - n.size() : 0, '0') + n;
}

// Writes `text` to `path` through a temporary file, so that no reader sees half of it.
void write_file(const fs::path& path, const std::string& text) { write_text_atomically(path.string(), text); }

std::string read_file(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A point's status: its run's exit status, or -1 when it has not finished.
int status_of(const fs::path& dir) {
  const std::string s = read_file(dir / "status");
  return s.empty() ? -1 : std::atoi(s.c_str());
}

}  // namespace

std::size_t SweepConfig::points() const {
  std::size_t n = 1;
  for (const Axis& a : axes) n *= a.values.size();
  return n;
}

std::vector<std::string> SweepConfig::overrides(std::size_t i) const {
  std::vector<std::string> o = set;
  std::vector<std::string> per_axis(axes.size());
  for (std::size_t k = axes.size(); k-- > 0;) {
    per_axis[k] = axes[k].key + "=" + axes[k].values[i % axes[k].values.size()];
    i /= axes[k].values.size();
  }
  o.insert(o.end(), per_axis.begin(), per_axis.end());
  return o;
}

SweepConfig load_sweep(const std::string& path) {
  using P = Presence;
  SweepConfig s;
  s.source = path;
  std::vector<Field> set_fields;                 // where each `set` entry is
  std::vector<std::vector<Field>> value_fields;  // per axis, where each value is
  Field base_field("base", YAML::Node(), Origin{path, 0, 0}, false);
  const char* const kSetExpected = "a list of 'key=value' overrides, as --set takes them";
  const char* const kAxesExpected =
      "a map of config keys to lists of values, such as {traffic.injection_rate: [0.1, 0.2]}";
  const KeySpec schema =
      section("", P::Required,
              {
                  leaf("name", P::Optional, "a string", "", [&s](const Field& f) { s.name = f.text(); }),
                  leaf("description", P::Defaulted, "a string", "\"\"", [](const Field& f) { (void)f.text(); }),
                  leaf("base", P::Required, "a config file, relative to the sweep file", "",
                       [&](const Field& f) {
                         s.base = f.text("a config file, relative to the sweep file");
                         base_field = f;
                       }),
                  leaf("set", P::Optional, kSetExpected, "",
                       [&](const Field& f) {
                         for (const Field& e : f.elements(kSetExpected)) {
                           const std::string kv = e.text(kSetExpected);
                           if (kv.find('=') == std::string::npos || kv.front() == '=') e.fail(kSetExpected);
                           s.set.push_back(kv);
                           set_fields.push_back(e);
                         }
                       }),
                  leaf("axes", P::Required, kAxesExpected, "",
                       [&](const Field& f) {
                         if (!f.is_map() || f.node().size() == 0) f.fail(kAxesExpected);
                         const MapFields entries(f, kAxesExpected);
                         for (const auto& kv : f.node()) {
                           const std::string key = kv.first.as<std::string>();
                           const Field axis = *entries.get(key);
                           const std::string expected = "a non-empty list of values for " + key;
                           const std::vector<Field> values = axis.elements(expected);
                           if (values.empty()) axis.fail_found(expected, "an empty list");
                           Axis a{key, {}};
                           for (const Field& v : values) {
                             if (!v.is_scalar()) v.fail(expected);
                             a.values.push_back(v.text(expected));
                           }
                           s.axes.push_back(std::move(a));
                           value_fields.push_back(values);
                         }
                       }),
              });
  ConfigReader r(schema, path);
  r.read_all([&path](ConfigReader& rr) { rr.parse_file(path); }, {});
  r.default_name(s.name);
  if (s.points() > kMaxPoints)
    r.field("axes").fail_found("at most " + std::to_string(kMaxPoints) + " points",
                               std::to_string(s.points()) + " combinations");
  const fs::path dir = fs::path(path).parent_path();
  s.base_path = fs::path(s.base).is_absolute() ? s.base : (dir / s.base).lexically_normal().string();
  if (!fs::is_regular_file(s.base_path))
    base_field.fail_found("a config file, relative to the sweep file", "'" + s.base + "', which does not exist");
  // Every point, before anything runs: the base with its overrides must load, in the network
  // model its topology.kind names (a DGX-2 config as well as a mesh).
  for (std::size_t i = 0; i < s.points(); ++i) {
    RunRequest req;
    req.config_path = s.base_path;
    req.overrides = s.overrides(i);
    try {
      model_for(req).check(req);
    } catch (const ConfigError& e) {
      const std::string why = e.what();
      // An override's error: point at the value in the sweep file that made it.
      for (std::size_t k = 0; k < s.set.size(); ++k)
        if (e.file() == "--set " + s.set[k]) set_fields[k].fail_found("an override the base config takes", why);
      std::size_t rest = i;
      for (std::size_t k = s.axes.size(); k-- > 0;) {
        const std::size_t v = rest % s.axes[k].values.size();
        rest /= s.axes[k].values.size();
        if (e.file() == "--set " + s.axes[k].key + "=" + s.axes[k].values[v])
          value_fields[k][v].fail_found("a value the base config takes at " + s.axes[k].key, why);
      }
      base_field.fail_found("a base config that loads with every point's overrides", why);
    }
  }
  return s;
}

int run_point(const std::string& dir, std::size_t i, const std::string& hxsim) {
  const ordered_json plan = ordered_json::parse(read_file(fs::path(dir) / "sweep.json"));
  const ordered_json& p = plan["points"].at(i);
  const fs::path pd = fs::path(dir) / p["dir"].get<std::string>();
  fs::create_directories(pd);
  // A run again starts clean: no status, and no results of an earlier attempt that collect could
  // take for this one's.
  fs::remove(pd / "status");
  fs::remove(pd / "results.json");
  std::vector<std::string> args = {hxsim, "run", plan["base_path"].get<std::string>()};
  for (const auto& o : p["overrides"]) args.insert(args.end(), {"--set", o.get<std::string>()});
  args.insert(args.end(), {"--quiet", "--out", (pd / "results.json").string()});
  const pid_t pid = fork();
  if (pid < 0) return 127;
  if (pid == 0) {
    const int log = open((pd / "log.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (log >= 0) {
      dup2(log, 1);
      dup2(log, 2);
    }
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    std::perror(("hxsim sweep: " + args[0]).c_str());
    _exit(127);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  const int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  write_file(pd / "status", std::to_string(code) + "\n");
  return code;
}

namespace {

// The plan every backend runs from: the base, the points and their overrides.
void write_plan(const SweepConfig& s, const fs::path& out) {
  ordered_json plan;
  plan["name"] = s.name;
  plan["source"] = s.source;
  plan["base"] = s.base;
  plan["base_path"] = fs::absolute(s.base_path).lexically_normal().string();
  plan["set"] = s.set;
  ordered_json axes = ordered_json::array();
  for (const Axis& a : s.axes) axes.push_back({{"key", a.key}, {"values", a.values}});
  plan["axes"] = axes;
  ordered_json points = ordered_json::array();
  for (std::size_t i = 0; i < s.points(); ++i) {
    const std::vector<std::string> o = s.overrides(i);
    ordered_json settings;
    for (std::size_t k = 0; k < s.axes.size(); ++k) {
      const std::string& kv = o[s.set.size() + k];
      settings[s.axes[k].key] = kv.substr(kv.find('=') + 1);
    }
    points.push_back({{"index", i}, {"dir", point_dir(i)}, {"settings", settings}, {"overrides", o}});
  }
  plan["points"] = points;
  write_file(out / "sweep.json", plan.dump(1) + "\n");
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string command_output(const std::string& cmd, int* status) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) {
    *status = -1;
    return out;
  }
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int st = pclose(p);
  *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return out;
}

int report(const SweepConfig& s, const fs::path& out, std::size_t skipped, bool quiet) {
  std::size_t ok = 0;
  std::vector<std::string> failed;
  for (std::size_t i = 0; i < s.points(); ++i) {
    const int st = status_of(out / point_dir(i));
    if (st == 0)
      ++ok;
    else
      failed.push_back(point_dir(i) + " (" + (st < 0 ? "did not finish" : "exit " + std::to_string(st)) +
                       "): " + (out / point_dir(i) / "log.txt").string());
  }
  if (!quiet) {
    std::printf("sweep %s: %zu points, %zu done (%zu of them before this run), %zu failed\n", s.name.c_str(),
                s.points(), ok, skipped, failed.size());
    for (const std::string& f : failed) std::printf("  FAILED %s\n", f.c_str());
  }
  collect(out.string(), quiet);  // the failed points too: their results say why
  return failed.empty() ? 0 : 1;
}

}  // namespace

int run(const SweepConfig& s, const Options& o) {
  const fs::path out = o.out.empty() ? fs::path("build") / "sweep" / s.name : fs::path(o.out);
  fs::create_directories(out);
  write_plan(s, out);
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < s.points(); ++i)
    if (status_of(out / point_dir(i)) != 0) todo.push_back(i);
  const std::size_t skipped = s.points() - todo.size();
  if (!o.quiet)
    std::printf("sweep %s: %zu points in %s, %zu to run, %zu done before\n", s.name.c_str(), s.points(),
                out.string().c_str(), todo.size(), skipped);
  std::fflush(stdout);
  if (todo.empty()) return report(s, out, skipped, o.quiet);

  if (o.backend == "slurm") {
    int st = 0;
    command_output("command -v sbatch", &st);
    if (st != 0) {
      std::fprintf(stderr, "hxsim sweep: --backend slurm needs sbatch in PATH (scripts/setup-deps.sh --slurm)\n");
      return 2;
    }
    std::string array;
    for (std::size_t i : todo) array += (array.empty() ? "" : ",") + std::to_string(i);
    const fs::path abs = fs::absolute(out);
    std::string script = "#!/bin/sh\n#SBATCH --job-name=hxsim-" + s.name + "\n#SBATCH --array=" + array +
                         "\n#SBATCH --output=" + (abs / "slurm-%A_%a.out").string() + "\n#SBATCH --ntasks=1\n" +
                         "exec " + shell_quote(o.hxsim) + " sweep point " + shell_quote(abs.string()) +
                         " \"$SLURM_ARRAY_TASK_ID\"\n";
    write_file(out / "sweep.sbatch", script);
    const std::string id = command_output("sbatch --parsable " + shell_quote((abs / "sweep.sbatch").string()), &st);
    if (st != 0 || id.empty()) {
      std::fprintf(stderr, "hxsim sweep: sbatch failed (exit %d): %s\n", st, id.c_str());
      return 2;
    }
    const std::string job = id.substr(0, id.find_first_of(";\n"));
    if (!o.quiet) std::printf("sweep %s: Slurm job %s, %zu tasks\n", s.name.c_str(), job.c_str(), todo.size());
    if (!o.wait) return 0;
    for (;;) {
      const std::string q = command_output("squeue -h -j " + job + " -o %i 2>/dev/null", &st);
      if (st == 0 && q.find_first_not_of(" \n") == std::string::npos) break;
      std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    return report(s, out, skipped, o.quiet);
  }

  // local: a pool of processes, each running one point.
  const unsigned jobs = o.jobs > 0 ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  std::map<pid_t, std::size_t> running;
  std::size_t next = 0, finished = 0;
  while (next < todo.size() || !running.empty()) {
    while (next < todo.size() && running.size() < jobs) {
      const std::size_t i = todo[next++];
      std::fflush(stdout);
      const pid_t pid = fork();
      if (pid == 0) _exit(run_point(out.string(), i, o.hxsim));
      if (pid < 0) throw std::runtime_error("hxsim sweep: fork failed");
      running[pid] = i;
    }
    int st = 0;
    const pid_t done = waitpid(-1, &st, 0);
    if (done < 0) break;
    const std::size_t i = running[done];
    running.erase(done);
    ++finished;
    const int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
    if (!o.quiet) {
      std::string settings;
      const std::vector<std::string> ov = s.overrides(i);
      for (std::size_t k = s.set.size(); k < ov.size(); ++k) settings += " " + ov[k];
      std::printf("  [%zu/%zu] %s%s: %s\n", finished, todo.size(), point_dir(i).c_str(), settings.c_str(),
                  code == 0 ? "done" : ("FAILED, exit " + std::to_string(code)).c_str());
      std::fflush(stdout);
    }
  }
  return report(s, out, skipped, o.quiet);
}

int collect(const std::string& dir, bool quiet) {
  const fs::path d(dir);
  const std::string text = read_file(d / "sweep.json");
  if (text.empty()) {
    std::fprintf(stderr, "hxsim sweep collect: %s: no sweep.json (not a sweep's directory)\n", dir.c_str());
    return 2;
  }
  const ordered_json plan = ordered_json::parse(text);
  // What each point's results give, by a path into its results JSON.
  const std::vector<std::pair<std::string, std::string>> columns = {
      {"passed", "/checks/passed"},
      {"cycles", "/sim/cycles"},
      {"offered", "/traffic/offered"},
      {"accepted", "/traffic/accepted"},
      {"avg_latency_cycles", "/traffic/avg_latency_cycles"},
      {"p99_latency_cycles", "/traffic/p99_latency_cycles"},
      {"time_us", "/collective/jobs/0/time_us"},
      {"algbw_GBps", "/collective/jobs/0/algbw_GBps"},
      {"busbw_GBps", "/collective/jobs/0/busbw_GBps"},
      {"fraction_of_peak", "/collective/jobs/0/fraction_of_peak"},
  };
  std::ostringstream csv;
  csv << "point,status";
  for (const auto& a : plan["axes"]) csv << "," << a["key"].get<std::string>();
  for (const auto& c : columns) csv << "," << c.first;
  csv << "\n";
  ordered_json results = ordered_json::array();
  std::size_t missing = 0;
  for (const auto& p : plan["points"]) {
    const fs::path pd = d / p["dir"].get<std::string>();
    const int st = status_of(pd);
    ordered_json row;
    row["point"] = p["dir"];
    row["status"] = st;
    row["settings"] = p["settings"];
    csv << p["dir"].get<std::string>() << "," << st;
    for (const auto& a : plan["axes"]) csv << "," << p["settings"][a["key"].get<std::string>()].get<std::string>();
    const std::string rj = read_file(pd / "results.json");
    ordered_json r;
    if (!rj.empty()) r = ordered_json::parse(rj, nullptr, false);
    if (rj.empty() || r.is_discarded()) ++missing;
    ordered_json values;
    for (const auto& [name, ptr] : columns) {
      const ordered_json::json_pointer jp(ptr);
      const bool has = !r.is_discarded() && r.is_object() && r.contains(jp);
      values[name] = has ? r.at(jp) : ordered_json(nullptr);
      csv << "," << (has ? r.at(jp).dump() : "");
    }
    csv << "\n";
    row["values"] = values;
    row["results"] = (pd / "results.json").string();
    results.push_back(row);
  }
  write_file(d / "sweep.csv", csv.str());
  ordered_json merged;
  merged["name"] = plan["name"];
  merged["base"] = plan["base"];
  merged["axes"] = plan["axes"];
  merged["points"] = results;
  write_file(d / "sweep_results.json", merged.dump(1) + "\n");
  if (!quiet)
    std::printf("sweep %s: %s and %s (%zu points, %zu without results)\n", plan["name"].get<std::string>().c_str(),
                (d / "sweep.csv").string().c_str(), (d / "sweep_results.json").string().c_str(), results.size(),
                missing);
  return missing == 0 ? 0 : 1;
}

}  // namespace hx::sweep
