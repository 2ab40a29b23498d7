#include "sim/cli/openb_command.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <thread>

#include "policies/gpu_share_policies.h"
#include "sim/core/text.h"
#include "sim/io/fill_results.h"
#include "sim/io/openb_csv.h"
#include "sim/io/output_dir.h"

namespace migsim {
namespace {

namespace fs = std::filesystem;

Result<std::vector<uint64_t>> ParseSeeds(const std::string& text) {
  std::vector<uint64_t> seeds;
  size_t dash = text.find('-');
  try {
    if (dash != std::string::npos) {
      const uint64_t lo = std::stoull(text.substr(0, dash)),
                     hi = std::stoull(text.substr(dash + 1));
      for (uint64_t s = lo; s <= hi && seeds.size() < 100000; ++s) seeds.push_back(s);
    } else {
      for (size_t start = 0; start <= text.size();) {
        size_t comma = text.find(',', start);
        if (comma == std::string::npos) comma = text.size();
        seeds.push_back(std::stoull(text.substr(start, comma - start)));
        start = comma + 1;
      }
    }
  } catch (const std::exception&) {
    seeds.clear();
  }
  if (seeds.empty())
    return Status::InvalidArgument("--seeds: expected '42-51' or '1,2,3', got '" + text + "'");
  return seeds;
}

std::string TracePath(const OpenbOptions& o, const std::string& trace) {
  if (trace.find('/') != std::string::npos || trace.ends_with(".csv")) return trace;
  return (fs::path(o.data_dir) / ("openb_pod_list_" + trace + ".csv")).string();
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

// Runs every job on `threads` workers; results land at their job's index, so the output
// order does not depend on scheduling.
std::vector<FillRun> RunAll(const std::vector<Job>& jobs, const std::vector<FillNode>& nodes,
                            const std::vector<std::vector<FillPod>>& traces,
                            const std::vector<std::string>& names, double tune, int threads,
                            bool progress) {
  std::vector<FillRun> runs(jobs.size());
  std::atomic<size_t> next{0}, done{0};
  auto worker = [&] {
    for (size_t i; (i = next++) < jobs.size();) {
      const Job& j = jobs[i];
      FillConfig config{j.policy, j.seed, tune};
      Result<FillResult> r = RunFill(nodes, traces[j.trace], config, &MakeGpuSharePolicy);
      runs[i] = FillRun{names[j.trace], config, r.ok() ? std::move(r).value() : FillResult{}};
      const size_t n = ++done;
      if (progress) std::fprintf(stderr, "\r[%zu/%zu] runs done", n, jobs.size());
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (std::thread& t : pool) t.join();
  if (progress) std::fprintf(stderr, "\n");
  return runs;
}

void PrintSummary(const std::vector<FillRun>& runs, const std::vector<std::string>& policies) {
  std::printf("%-16s %-26s %6s %22s %22s %12s\n", "policy", "trace", "seeds", "alloc % at 100 %",
              "alloc % at 130 %", "failed pods");
  std::vector<std::string> traces;
  for (const FillRun& r : runs) {
    if (std::find(traces.begin(), traces.end(), r.workload) == traces.end())
      traces.push_back(r.workload);
  }
  for (const std::string& trace : traces) {
    for (const std::string& policy : policies) {
      std::vector<double> a100, a130, failed;
      for (const FillRun& r : runs) {
        if (r.workload != trace || r.config.policy != policy) continue;
        const FillCurves c = BinFill(r.result);
        a100.push_back(c.alloc[100]);
        a130.push_back(c.alloc[130]);
        failed.push_back(static_cast<double>(r.result.pods_failed));
      }
      auto stat = [](const std::vector<double>& v) {
        double mean = 0, var = 0;
        for (double x : v) mean += x / v.size();
        for (double x : v) var += (x - mean) * (x - mean) / (v.size() > 1 ? v.size() - 1 : 1);
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.2f +- %.2f", mean, std::sqrt(var));
        return std::string(buf);
      };
      std::printf("%-16s %-26s %6zu %22s %22s %12s\n", policy.c_str(), trace.c_str(), a100.size(),
                  stat(a100).c_str(), stat(a130).c_str(), stat(failed).c_str());
    }
  }
}

}  // namespace

int OpenbCommand(const OpenbOptions& o) {
  auto fail = [](const Status& s) {
    std::cerr << "migsim: " << s.ToString() << "\n";
    return 2;
  };
  std::vector<std::string> policies = o.policies;
  if (policies.empty() || (policies.size() == 1 && policies[0] == "all"))
    policies = GpuSharePolicyNames();
  const std::vector<std::string> known = GpuSharePolicyNames();
  for (const std::string& p : policies) {
    if (std::find(known.begin(), known.end(), p) == known.end()) {
      return fail(Status::InvalidArgument("--policy: unknown policy '" + p + "' (valid: all, " +
                                          JoinNames(known) + ")"));
    }
  }
  Result<std::vector<uint64_t>> seeds = ParseSeeds(o.seeds);
  if (!seeds.ok()) return fail(seeds.status());
  const std::string nodes_path =
      o.nodes.empty() ? (fs::path(o.data_dir) / "openb_node_list_gpu_node.csv").string() : o.nodes;
  Result<std::vector<OpenbNode>> nodes = LoadOpenbNodes(nodes_path);
  if (!nodes.ok()) return fail(nodes.status());
  std::vector<std::vector<FillPod>> traces;
  std::vector<std::string> names;
  for (const std::string& t : o.traces.empty() ? std::vector<std::string>{"default"} : o.traces) {
    Result<std::vector<OpenbPod>> pods = LoadOpenbPods(TracePath(o, t));
    if (!pods.ok()) return fail(pods.status());
    traces.push_back(ToFillPods(pods.value()));
    names.push_back(TraceName(TracePath(o, t)));
  }
  std::vector<Job> jobs;
  for (size_t t = 0; t < traces.size(); ++t) {
    for (const std::string& p : policies) {
      for (uint64_t s : seeds.value()) jobs.push_back({t, p, s});
    }
  }
  const int threads = o.jobs > 0 ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  const auto start = std::chrono::steady_clock::now();
  const std::vector<FillRun> runs = RunAll(jobs, ToFillNodes(nodes.value()), traces, names, o.tune,
                                           threads, !o.quiet && isatty(STDERR_FILENO));
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  if (!o.out_dir.empty()) {
    Status s = WriteFiles(o.out_dir, {{"alloc_discrete.csv", FormatAllocCsv(runs)},
                                      {"frag_discrete.csv", FormatFragCsv(runs)},
                                      {"frag_ratio_discrete.csv", FormatFragRatioCsv(runs)},
                                      {"failed_pods.csv", FormatFailedCsv(runs)}});
    if (!s.ok()) {
      std::cerr << "migsim: " << s.ToString() << "\n";
      return 1;
    }
  }
  PrintSummary(runs, policies);
  std::printf("%zu runs in %.1f s on %d threads\n", runs.size(), took.count(), threads);
  return 0;
}

}  // namespace migsim
