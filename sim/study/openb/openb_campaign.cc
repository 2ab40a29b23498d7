#include "sim/study/openb/openb_campaign.h"

#include <algorithm>
#include <filesystem>

#include "policies/gpu_share_scorers.h"
#include "policies/mig_scorers.h"
#include "sim/core/check.h"
#include "sim/core/text.h"
#include "sim/io/openb_csv.h"

namespace migsim {
namespace {

namespace fs = std::filesystem;

constexpr char kTracePrefix[] = "openb_pod_list_";

// The trace names of every openb_pod_list_<name>.csv in `dir`, sorted.
std::vector<std::string> AvailableTraces(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::string file = e.path().filename().string();
    if (file.starts_with(kTracePrefix) && file.ends_with(".csv")) {
      names.push_back(
          file.substr(sizeof kTracePrefix - 1, file.size() - (sizeof kTracePrefix - 1) - 4));
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

// The pod CSVs of the sources: a path as given, a name as <data>/openb_pod_list_<name>.csv
// (which must exist), "all" as every trace in the data directory.
Result<std::vector<std::string>> TracePaths(const OpenbSources& o) {
  std::vector<std::string> paths;
  const std::vector<std::string> available =
      o.data_dir.empty() ? std::vector<std::string>{} : AvailableTraces(o.data_dir);
  for (const std::string& t : o.traces.empty() ? std::vector<std::string>{"default"} : o.traces) {
    if (t.find('/') != std::string::npos || t.ends_with(".csv")) {
      paths.push_back(t);
      continue;
    }
    const std::vector<std::string> names = t == "all" ? available : std::vector<std::string>{t};
    if (o.data_dir.empty()) {
      return Status::InvalidArgument("--trace: no openb data directory for trace '" + t + "'; " +
                                     o.looked);
    }
    if (names.empty() ||
        (t != "all" && std::find(available.begin(), available.end(), t) == available.end())) {
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
  return Status::InvalidArgument(path +
                                 ": no node has a GPU (the fill experiment tops the trace "
                                 "up to a share of the cluster's GPU capacity)");
}

Result<std::vector<FillNode>> LoadNodes(const OpenbSources& o) {
  if (o.nodes.empty() && o.data_dir.empty()) {
    return Status::InvalidArgument("no openb data directory (with openb_node_list_gpu_node.csv); " +
                                   o.looked);
  }
  const std::string path =
      o.nodes.empty() ? (fs::path(o.data_dir) / "openb_node_list_gpu_node.csv").string() : o.nodes;
  if (o.nodes.empty() && !fs::exists(path)) {
    return Status::InvalidArgument(path +
                                   ": no such file (point --data DIR or "
                                   "$MIGSIM_OPENB_DIR at the directory of the openb CSVs)");
  }
  Result<std::vector<OpenbNode>> nodes = LoadOpenbNodes(path);
  if (!nodes.ok()) return nodes.status();
  if (Status s = CheckNodes(path, nodes.value()); !s.ok()) return s;
  std::vector<FillNode> out;
  for (const OpenbNode& n : nodes.value())
    out.push_back({n.name, n.cpu_milli, n.memory_mib, n.gpus, n.model});
  return out;
}

Result<std::vector<FillPod>> LoadTrace(const std::string& path) {
  Result<std::vector<OpenbPod>> pods = LoadOpenbPods(path);
  if (!pods.ok()) return pods.status();
  if (pods.value().empty()) return Status::InvalidArgument(path + ": no pods");
  std::vector<FillPod> out;
  for (const OpenbPod& p : pods.value()) out.push_back({p.name, p.memory_mib, p.shape});
  return out;
}

// One fill run: the exact path, or a fresh instance of the policy through the view.
Result<FillResult> RunOne(const std::vector<FillNode>& nodes, const FillTrace& trace,
                          const FillPolicy& policy, const FillConfig& config) {
  if (!policy.make) return RunFill(nodes, trace, config, &MakeGpuShareScorer);
  std::unique_ptr<Policy> made = policy.make(config.seed);
  MIGSIM_CHECK(made != nullptr, "a fill policy's factory made no policy");
  return RunPolicyFill(nodes, trace, config, *made);
}

}  // namespace

Result<OpenbInputs> LoadOpenbInputs(const OpenbSources& sources) {
  OpenbInputs in;
  Result<std::vector<FillNode>> nodes = LoadNodes(sources);
  if (!nodes.ok()) return nodes.status();
  in.nodes = std::move(nodes).value();
  Result<std::vector<std::string>> paths = TracePaths(sources);
  if (!paths.ok()) return paths.status();
  for (const std::string& path : paths.value()) {
    Result<std::vector<FillPod>> pods = LoadTrace(path);
    if (!pods.ok()) return pods.status();
    const std::string name = fs::path(path).stem().string();
    if (std::find(in.trace_names.begin(), in.trace_names.end(), name) != in.trace_names.end()) {
      return Status::InvalidArgument("--trace: two traces are named '" + name +
                                     "' (results are grouped by the file's name)");
    }
    in.traces.push_back(std::move(pods).value());
    in.trace_names.push_back(name);
  }
  return in;
}

Status CheckFillPolicies(const OpenbInputs& inputs, const std::vector<FillPolicy>& policies) {
  const bool viewed = std::any_of(policies.begin(), policies.end(),
                                  [](const FillPolicy& p) { return bool(p.make); });
  for (const FillNode& n : inputs.nodes) {
    if (viewed && n.cpu_milli % 1000 != 0) {
      return Status::InvalidArgument("node " + n.name + ": cpu_milli " +
                                     std::to_string(n.cpu_milli) +
                                     " is not whole cores, which a policy other than the six "
                                     "built-in scorers needs (it sees nodes as the engine does)");
    }
  }
  return Status::Ok();
}

std::vector<FillRun> RunFillCampaign(const OpenbInputs& inputs,
                                     const std::vector<std::string>& policies,
                                     const CampaignOptions& options) {
  return RunFillCampaign(inputs, ExactFillPolicies(policies), options);
}

std::vector<FillRun> RunFillCampaign(const OpenbInputs& inputs,
                                     const std::vector<FillPolicy>& policies,
                                     const CampaignOptions& options) {
  std::vector<FillRun> runs;
  for (const std::string& trace : inputs.trace_names) {
    for (const FillPolicy& policy : policies) {
      for (uint64_t seed : options.seeds) {
        runs.push_back({trace, {policy.label, seed, options.tune}, {}});
      }
    }
  }
  // Each trace's name sort, typical pods and ids once, shared by its runs.
  std::vector<FillTrace> traces;
  traces.reserve(inputs.traces.size());
  for (const std::vector<FillPod>& trace : inputs.traces) traces.emplace_back(trace);
  const size_t per_trace = policies.size() * options.seeds.size();
  const auto policy_of = [&](size_t i) -> const FillPolicy& {
    return policies[(i % per_trace) / options.seeds.size()];
  };
  const auto run = [&](size_t i) {
    Result<FillResult> r =
        RunOne(inputs.nodes, traces[i / per_trace], policy_of(i), runs[i].config);
    // LoadOpenbInputs checked nodes and traces; REQUIRES covers the policies.
    MIGSIM_CHECK(r.ok(), r.status().ToString().c_str());
    runs[i].result = std::move(r).value();
  };
  // Each run fills its own slot: the output order does not depend on scheduling.
  std::vector<size_t> parallel, serial;
  for (size_t i = 0; i < runs.size(); ++i)
    (policy_of(i).one_thread ? serial : parallel).push_back(i);
  ProgressFn progress;
  if (options.progress) {
    progress = [&](size_t done, size_t) { options.progress(done, runs.size()); };
  }
  ParallelFor(
      parallel.size(), static_cast<size_t>(std::max(options.threads, 1)),
      [&](size_t k) { run(parallel[k]); }, progress);
  for (size_t k = 0; k < serial.size(); ++k) {
    run(serial[k]);
    if (progress) progress(parallel.size() + k + 1, runs.size());
  }
  return runs;
}

std::vector<MigVariant> MigVariants() {
  std::vector<MigVariant> v;
  for (const char* layout :
       {"all-1g.5gb", "all-2g.10gb", "all-3g.20gb", "all-balanced", "all-7g.40gb"}) {
    v.push_back({std::string("static:") + layout, layout, "mig-best-fit"});
  }
  for (const std::string& policy : MigScorerNames()) v.push_back({"dynamic:" + policy, "", policy});
  return v;
}

std::vector<MigFillRun> RunMigCampaign(const OpenbInputs& inputs, int64_t openb_gpus,
                                       const CampaignOptions& options) {
  const std::vector<FillNode> cluster = P4dCluster(openb_gpus);
  const std::vector<MigVariant> variants = MigVariants();
  const std::vector<uint64_t>& seeds = options.seeds;
  std::vector<MigFillRun> runs;
  for (const std::string& trace : inputs.trace_names) {
    for (const MigVariant& v : variants) {
      for (uint64_t seed : seeds) runs.push_back({trace, v.name, options.tune, seed, {}});
    }
  }
  ParallelFor(
      runs.size(), static_cast<size_t>(std::max(options.threads, 1)),
      [&](size_t i) {
        MigFillRun& run = runs[i];
        const MigVariant& v = variants[(i / seeds.size()) % variants.size()];
        const size_t trace = i / (seeds.size() * variants.size());
        MigFillConfig config{v.policy, v.layout, run.seed, options.tune, openb_gpus};
        Result<MigFillResult> r = RunMigFill(cluster, inputs.traces[trace], config, &MakeMigScorer);
        MIGSIM_CHECK(r.ok(), r.status().ToString().c_str());  // built-in variants only
        run.result = std::move(r).value();
      },
      options.progress);
  return runs;
}

}  // namespace migsim
