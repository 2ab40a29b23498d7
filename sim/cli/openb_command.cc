#include "sim/cli/openb_command.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>

#include "policies/gpu_share_policies.h"
#include "policies/mig_share_policies.h"
#include "sim/cli/failure.h"
#include "sim/core/check.h"
#include "sim/core/parallel_for.h"
#include "sim/core/text.h"
#include "sim/io/fill_results.h"
#include "sim/io/openb_csv.h"
#include "sim/io/output_dir.h"
#include "workloads/mig_fill.h"

namespace migsim {
namespace {

namespace fs = std::filesystem;

// The first name that occurs twice in `names`, or "".
std::string FirstRepeated(const std::vector<std::string>& names) {
  for (size_t i = 0; i < names.size(); ++i) {
    if (std::find(names.begin() + static_cast<std::ptrdiff_t>(i) + 1, names.end(), names[i]) !=
        names.end()) {
      return names[i];
    }
  }
  return "";
}

// More runs than anyone means to ask for: a typo such as 1-1000000000 is an error, not
// hours of work.
constexpr size_t kMaxSeeds = 10000;

// A decimal seed: digits only, within uint64.
std::optional<uint64_t> ParseSeed(std::string_view s) {
  uint64_t v = 0;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || error != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// "42-51", "1,2,3" or both ("1-3,7"): items separated by commas, each a seed or an
// inclusive range lo-hi with lo <= hi. No seed twice, at most kMaxSeeds.
Result<std::vector<uint64_t>> ParseSeeds(const std::string& text) {
  const auto bad = [&](const std::string& why) {
    return Status::InvalidArgument("--seeds '" + text + "': " + why +
                                   " (expected e.g. '42-51' or '1,2,3')");
  };
  std::vector<uint64_t> seeds;
  for (size_t start = 0; start <= text.size();) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view item = std::string_view(text).substr(start, comma - start);
    const size_t dash = item.find('-');
    const std::optional<uint64_t> lo = ParseSeed(item.substr(0, dash));
    const std::optional<uint64_t> hi =
        dash == std::string_view::npos ? lo : ParseSeed(item.substr(dash + 1));
    if (!lo || !hi) return bad("'" + std::string(item) + "' is not a seed or a range lo-hi");
    if (*hi < *lo) return bad("the range " + std::string(item) + " is empty");
    if (*hi - *lo >= kMaxSeeds || seeds.size() + (*hi - *lo) >= kMaxSeeds) {
      return bad("more than " + std::to_string(kMaxSeeds) + " seeds");
    }
    for (uint64_t s = *lo;; ++s) {
      seeds.push_back(s);
      if (s == *hi) break;
    }
    start = comma + 1;
  }
  std::vector<uint64_t> sorted = seeds;
  std::sort(sorted.begin(), sorted.end());
  if (const auto twice = std::adjacent_find(sorted.begin(), sorted.end()); twice != sorted.end()) {
    return bad("seed " + std::to_string(*twice) + " is given twice");
  }
  return seeds;
}

constexpr char kTracePrefix[] = "openb_pod_list_";

// The trace names of every openb_pod_list_<name>.csv in `dir`, sorted.
std::vector<std::string> AvailableTraces(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::string file = e.path().filename().string();
    if (file.starts_with(kTracePrefix) && file.ends_with(".csv")) {
      names.push_back(file.substr(sizeof kTracePrefix - 1,
                                  file.size() - (sizeof kTracePrefix - 1) - 4));
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

// The pod CSVs of --trace: a path as given, a name as <data>/openb_pod_list_<name>.csv
// (which must exist), "all" as every trace in the data directory.
Result<std::vector<std::string>> TracePaths(const OpenbOptions& o) {
  std::vector<std::string> paths;
  const std::vector<std::string> available = AvailableTraces(o.data_dir);
  for (const std::string& t : o.traces.empty() ? std::vector<std::string>{"default"} : o.traces) {
    if (t.find('/') != std::string::npos || t.ends_with(".csv")) {
      paths.push_back(t);
      continue;
    }
    const std::vector<std::string> names = t == "all" ? available : std::vector<std::string>{t};
    if (names.empty() || (t != "all" && std::find(available.begin(), available.end(), t) ==
                                            available.end())) {
      return Status::InvalidArgument(
          "--trace: no trace '" + t + "' in " + o.data_dir + " (" +
          (available.empty() ? std::string("no openb_pod_list_*.csv there; set --data DIR or "
                                           "$MIGSIM_OPENB_DIR")
                             : "available: all, " + JoinNames(available)) +
          ")");
    }
    for (const std::string& name : names)
      paths.push_back((fs::path(o.data_dir) / (kTracePrefix + name + ".csv")).string());
  }
  return paths;
}

std::string TraceName(const std::string& path) { return fs::path(path).stem().string(); }

std::vector<FillNode> ToFillNodes(const std::vector<OpenbNode>& nodes) {
  std::vector<FillNode> out;
  for (const OpenbNode& n : nodes)
    out.push_back({n.name, n.cpu_milli, n.memory_mib, n.gpus, n.model});
  return out;
}

std::vector<FillPod> ToFillPods(const std::vector<OpenbPod>& pods) {
  std::vector<FillPod> out;
  for (const OpenbPod& p : pods) out.push_back({p.name, p.memory_mib, p.shape});
  return out;
}

struct Job {
  size_t trace;
  std::string policy;
  uint64_t seed;
};

// Runs fn(i) for i in [0, n) on `threads` workers, with progress on stderr.
template <typename Fn>
void Parallel(size_t n, int threads, bool progress, const char* what, Fn fn) {
  std::atomic<size_t> done{0};
  ParallelFor(n, static_cast<size_t>(threads), [&](size_t i) {
    fn(i);
    const size_t d = ++done;
    if (progress) std::fprintf(stderr, "\r[%zu/%zu] %s", d, n, what);
  });
  if (progress) std::fprintf(stderr, "\n");
}

// Runs every job on `threads` workers; results land at their job's index, so the output
// order does not depend on scheduling.
std::vector<FillRun> RunAll(const std::vector<Job>& jobs, const std::vector<FillNode>& nodes,
                            const std::vector<std::vector<FillPod>>& traces,
                            const std::vector<std::string>& names, double tune, int threads,
                            bool progress) {
  std::vector<FillRun> runs(jobs.size());
  Parallel(jobs.size(), threads, progress, "runs done", [&](size_t i) {
    const Job& j = jobs[i];
    FillConfig config{j.policy, j.seed, tune};
    Result<FillResult> r = RunFill(nodes, traces[j.trace], config, &MakeGpuSharePolicy);
    // The command checked policies, nodes and traces first: nothing left to fail on.
    MIGSIM_CHECK(r.ok(), r.status().ToString().c_str());
    runs[i] = FillRun{names[j.trace], config, std::move(r).value()};
  });
  return runs;
}

struct MigVariant {
  std::string name, layout, policy;
};

std::vector<MigVariant> MigVariants() {
  std::vector<MigVariant> v;
  for (const char* layout :
       {"all-1g.5gb", "all-2g.10gb", "all-3g.20gb", "all-balanced", "all-7g.40gb"}) {
    v.push_back({std::string("static:") + layout, layout, "mig-best-fit"});
  }
  for (const std::string& policy : MigSharePolicyNames())
    v.push_back({"dynamic:" + policy, "", policy});
  return v;
}

// The MIG edition on p4d nodes with as many GPUs as the openb cluster (`openb_gpus`, 6212
// for the study's), whose capacity also sets the top-up target, as in the milli-GPU runs.
std::vector<MigFillRun> RunMig(const std::vector<std::vector<FillPod>>& traces,
                               const std::vector<std::string>& names, int64_t openb_gpus,
                               const std::vector<uint64_t>& seeds, double tune, int threads,
                               bool progress) {
  const std::vector<FillNode> cluster = P4dCluster(openb_gpus);
  const std::vector<MigVariant> variants = MigVariants();
  std::vector<MigFillRun> runs;
  for (size_t t = 0; t < traces.size(); ++t) {
    for (const MigVariant& v : variants) {
      for (uint64_t seed : seeds) runs.push_back({names[t], v.name, tune, seed, {}});
    }
  }
  Parallel(runs.size(), threads, progress, "MIG runs done", [&](size_t i) {
    MigFillRun& run = runs[i];
    const MigVariant& v = variants[(i / seeds.size()) % variants.size()];
    const size_t trace = i / (seeds.size() * variants.size());
    MigFillConfig config{v.policy, v.layout, run.seed, tune, openb_gpus};
    Result<MigFillResult> r = RunMigFill(cluster, traces[trace], config, &MakeMigSharePolicy);
    MIGSIM_CHECK(r.ok(), r.status().ToString().c_str());  // built-in variants only
    run.result = std::move(r).value();
  });
  return runs;
}

// Mean and sample sd over the values that are there: a bin's NaN (no event near it in
// that run, possible only on tiny clusters) is left out and counted as missing.
struct MeanSd {
  double mean = 0, sd = 0;
  size_t n = 0, missing = 0;
};

MeanSd Stat(const std::vector<double>& v) {
  MeanSd m;
  for (double x : v) std::isnan(x) ? ++m.missing : ++m.n;
  if (m.n == 0) return m;
  for (double x : v) m.mean += std::isnan(x) ? 0 : x / static_cast<double>(m.n);
  double var = 0;
  for (double x : v) var += std::isnan(x) ? 0 : (x - m.mean) * (x - m.mean);
  m.sd = m.n > 1 ? std::sqrt(var / static_cast<double>(m.n - 1)) : 0;
  return m;
}

// "83.87 +- 0.12"; "83.87 +- 0.00 (1/3)" when only 1 of 3 runs has the value; "n/a".
std::string Format(const MeanSd& m) {
  if (m.n == 0) return "n/a";
  char buf[80];
  std::snprintf(buf, sizeof buf, "%.2f +- %.2f", m.mean, m.sd);
  if (m.missing == 0) return buf;
  return std::string(buf) + " (" + std::to_string(m.n) + "/" + std::to_string(m.n + m.missing) +
         ")";
}

// The mean alone, "n/a" without values.
std::string Mean(const std::vector<double>& v) {
  const MeanSd m = Stat(v);
  if (m.n == 0) return "n/a";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.2f", m.mean);
  return buf;
}

void PrintMigSummary(const std::vector<MigFillRun>& runs) {
  std::printf("\nMIG edition: %zu p4d.24xlarge nodes (A100-40GB); GPU requests as MIG profiles\n",
              runs.empty() ? size_t{0} : static_cast<size_t>(runs[0].result.gpus / 8));
  std::printf("%-26s %-24s %16s %16s %16s %16s\n", "variant", "trace", "placed % @100",
              "placed % @130", "slices % @130", "MIG frag % @100");
  for (size_t i = 0; i < runs.size();) {
    size_t j = i;
    std::vector<double> placed100, placed130, slices130, frag100;
    while (j < runs.size() && runs[j].variant == runs[i].variant &&
           runs[j].workload == runs[i].workload) {
      const MigCurves c = BinMigFill(runs[j].result);
      placed100.push_back(c.placed[100]), placed130.push_back(c.placed[130]);
      slices130.push_back(c.slices[130]), frag100.push_back(c.frag[100]);
      ++j;
    }
    std::printf("%-26s %-24s %16s %16s %16s %16s\n", runs[i].variant.c_str(),
                runs[i].workload.c_str(), Mean(placed100).c_str(), Mean(placed130).c_str(),
                Mean(slices130).c_str(), Mean(frag100).c_str());
    i = j;
  }
}

std::vector<std::string> Traces(const std::vector<FillRun>& runs) {
  std::vector<std::string> traces;
  for (const FillRun& r : runs) {
    if (std::find(traces.begin(), traces.end(), r.workload) == traces.end())
      traces.push_back(r.workload);
  }
  return traces;
}

// Calls fn(trace, policy, runs of that pair) for each pair, in trace then policy order.
template <typename Fn>
void ForEachGroup(const std::vector<FillRun>& runs, const std::vector<std::string>& policies,
                  Fn fn) {
  for (const std::string& trace : Traces(runs)) {
    for (const std::string& policy : policies) {
      std::vector<const FillRun*> group;
      for (const FillRun& r : runs) {
        if (r.workload == trace && r.config.policy == policy) group.push_back(&r);
      }
      fn(trace, policy, group);
    }
  }
}

void PrintSummary(const std::vector<FillRun>& runs, const std::vector<std::string>& policies) {
  std::printf("%-16s %-26s %6s %22s %22s %12s\n", "policy", "trace", "seeds", "alloc % at 100 %",
              "alloc % at 130 %", "failed pods");
  ForEachGroup(runs, policies, [](const std::string& trace, const std::string& policy,
                                  const std::vector<const FillRun*>& group) {
    std::vector<double> a100, a130, failed;
    for (const FillRun* r : group) {
      const FillCurves c = BinFill(r->result);
      a100.push_back(c.alloc[100]);
      a130.push_back(c.alloc[130]);
      failed.push_back(static_cast<double>(r->result.pods_failed));
    }
    std::printf("%-16s %-26s %6zu %22s %22s %12s\n", policy.c_str(), trace.c_str(), a100.size(),
                Format(Stat(a100)).c_str(), Format(Stat(a130)).c_str(),
                Format(Stat(failed)).c_str());
  });
}

// The end of the runs as the reference simulator's final report states it, mean over the
// seeds: allocated CPU, memory, GPUs holding any share, milli-GPU, and the idle milli-GPU
// by FGD category (% of idle).
void PrintFinalState(const std::vector<FillRun>& runs, const std::vector<std::string>& policies) {
  std::printf("\nEnd of run (mean over seeds; q1..xr split the idle milli-GPU, openb-protocol.md "
              "\u00a75.2)\n");
  std::printf("%-16s %-26s %7s %7s %7s %9s %7s %6s %6s %6s %6s %6s %6s\n", "policy", "trace",
              "cpu %", "mem %", "GPUs", "mGPU %", "frag %", "q1", "q2", "q3", "q4", "xl", "xr");
  ForEachGroup(runs, policies, [](const std::string& trace, const std::string& policy,
                                  const std::vector<const FillRun*>& group) {
    std::vector<std::vector<double>> cols(11);
    for (const FillRun* r : group) {
      const FillFinalState& f = r->result.final_state;
      const double idle = f.idle.idle() > 0 ? f.idle.idle() : 1;
      const double values[] = {
          100.0 * static_cast<double>(f.cpu_milli_used) / static_cast<double>(f.cpu_milli_total),
          100.0 * static_cast<double>(f.memory_mib_used) / static_cast<double>(f.memory_mib_total),
          static_cast<double>(f.gpus_allocated),
          100.0 * static_cast<double>(f.milli_gpu_used) /
              (1000.0 * static_cast<double>(r->result.total_gpus)),
          100 * f.idle.fragment() / idle, 100 * f.idle.q1 / idle, 100 * f.idle.q2 / idle,
          100 * f.idle.q3 / idle, 100 * f.idle.q4 / idle, 100 * f.idle.xl / idle,
          100 * f.idle.xr / idle};
      for (size_t i = 0; i < cols.size(); ++i) cols[i].push_back(values[i]);
    }
    std::printf("%-16s %-26s %7.2f %7.2f %7.1f %9.2f %7.2f", policy.c_str(), trace.c_str(),
                Stat(cols[0]).mean, Stat(cols[1]).mean, Stat(cols[2]).mean, Stat(cols[3]).mean,
                Stat(cols[4]).mean);
    for (size_t i = 5; i < cols.size(); ++i) std::printf(" %6.2f", Stat(cols[i]).mean);
    std::printf("\n");
  });
}

// Nodes the experiment can use: uniquely named (results name them), a model for every
// GPU node (gpu_spec matches it), and some GPUs: the trace is topped up to a share of them.
Status CheckNodes(const std::string& path, const std::vector<OpenbNode>& nodes) {
  if (nodes.empty()) return Status::InvalidArgument(path + ": no nodes");
  if (Status s = CheckUniqueNames(nodes, path, "node"); !s.ok()) return s;
  for (const OpenbNode& n : nodes) {
    if (n.gpus > 0 && n.model.empty()) {
      return Status::InvalidArgument("a node with GPUs needs a model",
                                     {path, "line " + std::to_string(n.line)});
    }
  }
  for (const OpenbNode& n : nodes) {
    if (n.gpus > 0) return Status::Ok();
  }
  return Status::InvalidArgument(path + ": no node has a GPU (the fill experiment tops the trace "
                                        "up to a share of the cluster's GPU capacity)");
}

}  // namespace

int OpenbCommand(const OpenbOptions& o) {
  auto fail = [](const Status& s) { return Fail(s, kBadInput); };
  std::vector<std::string> policies = o.policies;
  const bool all = std::find(policies.begin(), policies.end(), "all") != policies.end();
  if (all && policies.size() > 1) {
    return fail(Status::InvalidArgument("--policy: 'all' already names every policy; give it "
                                        "alone or list policies"));
  }
  if (policies.empty() || all) policies = GpuSharePolicyNames();
  const std::vector<std::string> known = GpuSharePolicyNames();
  for (const std::string& p : policies) {
    if (std::find(known.begin(), known.end(), p) == known.end()) {
      return fail(Status::InvalidArgument("--policy: unknown policy '" + p + "' (valid: all, " +
                                          JoinNames(known) + ")"));
    }
  }
  if (const auto twice = FirstRepeated(policies); !twice.empty()) {
    return fail(Status::InvalidArgument("--policy: '" + twice + "' is given twice"));
  }
  // The study's tune is 1.3; past 10 the top-up alone is ten times the cluster (and nan or
  // inf would never stop).
  if (!(o.tune > 0 && o.tune <= 10)) {
    char got[32];
    std::snprintf(got, sizeof got, "%g", o.tune);
    return fail(Status::InvalidArgument(std::string("--tune: must be in (0, 10], got ") + got));
  }
  Result<std::vector<uint64_t>> seeds = ParseSeeds(o.seeds);
  if (!seeds.ok()) return fail(seeds.status());
  if (!o.out_dir.empty()) {
    if (Status s = CheckOutputDir("--out", o.out_dir); !s.ok()) return fail(s);
  }
  const std::string nodes_path =
      o.nodes.empty() ? (fs::path(o.data_dir) / "openb_node_list_gpu_node.csv").string() : o.nodes;
  if (o.nodes.empty() && !fs::exists(nodes_path)) {
    return fail(Status::InvalidArgument(nodes_path + ": no such file (point --data DIR or "
                                        "$MIGSIM_OPENB_DIR at the directory of the openb CSVs)"));
  }
  Result<std::vector<OpenbNode>> nodes = LoadOpenbNodes(nodes_path);
  if (!nodes.ok()) return fail(nodes.status());
  if (Status s = CheckNodes(nodes_path, nodes.value()); !s.ok()) return fail(s);
  Result<std::vector<std::string>> trace_paths = TracePaths(o);
  if (!trace_paths.ok()) return fail(trace_paths.status());
  std::vector<std::vector<FillPod>> traces;
  std::vector<std::string> names;
  for (const std::string& path : trace_paths.value()) {
    Result<std::vector<OpenbPod>> pods = LoadOpenbPods(path);
    if (!pods.ok()) return fail(pods.status());
    if (pods.value().empty()) return fail(Status::InvalidArgument(path + ": no pods"));
    traces.push_back(ToFillPods(pods.value()));
    names.push_back(TraceName(path));
  }
  if (const auto twice = FirstRepeated(names); !twice.empty()) {
    return fail(Status::InvalidArgument("--trace: two traces are named '" + twice +
                                        "' (results are grouped by the file's name)"));
  }
  std::vector<Job> jobs;
  for (size_t t = 0; t < traces.size(); ++t) {
    for (const std::string& p : policies) {
      for (uint64_t s : seeds.value()) jobs.push_back({t, p, s});
    }
  }
  const int threads = static_cast<int>(WorkerCount(o.jobs));
  const auto start = std::chrono::steady_clock::now();
  const std::vector<FillRun> runs = RunAll(jobs, ToFillNodes(nodes.value()), traces, names, o.tune,
                                           threads, !o.quiet && isatty(STDERR_FILENO));
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  if (!o.out_dir.empty()) {
    Status s = WriteFiles(o.out_dir, {{"alloc_discrete.csv", FormatAllocCsv(runs)},
                                      {"frag_discrete.csv", FormatFragCsv(runs)},
                                      {"frag_ratio_discrete.csv", FormatFragRatioCsv(runs)},
                                      {"failed_pods.csv", FormatFailedCsv(runs)},
                                      {"final_state.csv", FormatFinalStateCsv(runs)}});
    if (!s.ok()) {
      return Fail(s, kInternalError);
    }
  }
  PrintSummary(runs, policies);
  PrintFinalState(runs, policies);
  std::printf("%zu runs in %.1f s on %d threads\n", runs.size(), took.count(), threads);
  if (o.mig) {
    const auto mig_start = std::chrono::steady_clock::now();
    const std::vector<MigFillRun> mig =
        RunMig(traces, names, runs.front().result.total_gpus, seeds.value(), o.tune, threads,
               !o.quiet && isatty(STDERR_FILENO));
    const std::chrono::duration<double> mig_took = std::chrono::steady_clock::now() - mig_start;
    if (!o.out_dir.empty()) {
      Status s =
          WriteFiles(o.out_dir, {{"mig_placed_discrete.csv", FormatMigCsv(mig, &MigCurves::placed)},
                                 {"mig_slices_discrete.csv", FormatMigCsv(mig, &MigCurves::slices)},
                                 {"mig_frag_discrete.csv", FormatMigCsv(mig, &MigCurves::frag)}});
      if (!s.ok()) {
        return Fail(s, kInternalError);
      }
    }
    PrintMigSummary(mig);
    std::printf("%zu MIG runs in %.1f s\n", mig.size(), mig_took.count());
  }
  return 0;
}

}  // namespace migsim
