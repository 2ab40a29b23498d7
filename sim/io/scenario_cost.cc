#include "sim/io/scenario_cost.h"

#include <cmath>
#include <string>

#include "sim/io/input_limits.h"

namespace migsim::io {
namespace {

int64_t WorkflowPods(const WorkflowStepSpec& step) {
  return step.items.empty() ? 1 : static_cast<int64_t>(step.items.size());
}

struct BeforeRetries {
  int64_t operator()(const PodGroupSpec& s) const { return s.count; }
  int64_t operator()(const DeploymentSpec& s) const {
    int64_t pods = s.replicas;
    int64_t live = s.replicas;
    for (const ScaleEvent& e : s.scale) {
      if (e.replicas > live) pods += e.replicas - live;
      live = e.replicas;
    }
    return pods;
  }
  int64_t operator()(const JobSpec& s) const { return s.completions; }
  int64_t operator()(const WorkflowSpec& s) const {
    int64_t pods = 0;
    for (const WorkflowStepSpec& step : s.steps) pods += WorkflowPods(step);
    return pods;
  }
  int64_t operator()(const TraceSpec& s) const { return static_cast<int64_t>(s.entries.size()); }
  int64_t operator()(const DistributedJobSpec& s) const { return s.workers; }
};

// Kubernetes' Job controller fails the Job once its failed pods exceed backoffLimit
// (pkg/controller/job: `exceedsBackoffLimit`): at most backoffLimit + 1 failures.
struct WithRetries {
  double operator()(const JobSpec& s) const {
    return static_cast<double>(s.completions) + static_cast<double>(s.backoff_limit) + 1;
  }
  double operator()(const WorkflowSpec& s) const {
    double pods = 0;
    for (const WorkflowStepSpec& step : s.steps) {
      pods += static_cast<double>(WorkflowPods(step)) * (1.0 + step.retry.limit);
    }
    return pods;
  }
  double operator()(const DistributedJobSpec& s) const {
    return static_cast<double>(s.workers) * (1.0 + s.backoff_limit);
  }
  template <typename Other>
  double operator()(const Other& s) const {
    return static_cast<double>(BeforeRetries{}(s));
  }
};

std::string WorkloadPointer(const WorkloadSpec& w) {
  return "/workloads/" +
         EscapePointerToken(std::visit([](const auto& s) -> const std::string& { return s.name; },
                                       w));
}

std::string WhyWithRetries(const WorkloadSpec& w) {
  if (std::holds_alternative<JobSpec>(w)) return "completions + backoff_limit + 1";
  if (std::holds_alternative<WorkflowSpec>(w)) return "items x (1 + retryStrategy limit) per step";
  if (std::holds_alternative<DistributedJobSpec>(w)) return "workers x (1 + backoff_limit)";
  return "its pods";
}

// The workload with the most pods, for the message: the element that multiplies.
const WorkloadSpec* Largest(const Scenario& scenario, bool retries) {
  const WorkloadSpec* largest = nullptr;
  double most = -1;
  for (const WorkloadSpec& w : scenario.workloads) {
    const double pods =
        retries ? PodsWithRetries(w) : static_cast<double>(PodsBeforeRetries(w));
    if (pods > most) {
      most = pods;
      largest = &w;
    }
  }
  return largest;
}

void CheckPods(LoadContext* ctx, const Scenario& scenario) {
  const InputLimits& limits = CurrentInputLimits();
  const int64_t before = PodsBeforeRetries(scenario);
  if (before > limits.pods_per_scenario) {
    const WorkloadSpec* w = Largest(scenario, false);
    ctx->Fail(w != nullptr ? WorkloadPointer(*w) : "/workloads",
              "the workloads create " + std::to_string(before) +
                  " pods before retries (this one " + std::to_string(PodsBeforeRetries(*w)) +
                  (std::holds_alternative<DeploymentSpec>(*w) ? ", its every scale-up counted"
                                                               : "") +
                  "); at most " +
                  std::to_string(limits.pods_per_scenario) + " fit in one run" +
                  RaiseHint("pods"));
    return;
  }
  double with = 0;
  for (const WorkloadSpec& w : scenario.workloads) with += PodsWithRetries(w);
  if (with > static_cast<double>(limits.pods_with_retries)) {
    const WorkloadSpec* w = Largest(scenario, true);
    ctx->Fail(WorkloadPointer(*w),
              "the workloads could create " + FormatCount(with) +
                  " pods were every retry used (this one " + FormatCount(PodsWithRetries(*w)) +
                  ": " + WhyWithRetries(*w) + "); the limit is " +
                  std::to_string(limits.pods_with_retries) + RaiseHint("pods-with-retries"));
  }
}

int64_t Units(const FaultProcess& process, const ClusterSpec& cluster) {
  if (process.kind != FaultKind::kGpuUnhealthy) return static_cast<int64_t>(process.nodes.size());
  int64_t gpus = 0;
  for (uint32_t n : process.nodes) gpus += cluster.nodes[n].type->gpu_count;
  return gpus;
}

void CheckFaults(LoadContext* ctx, const Scenario& scenario) {
  const double limit = static_cast<double>(CurrentInputLimits().fault_events);
  double total = static_cast<double>(scenario.cluster.faults.size());
  for (size_t i = 0; i < scenario.cluster.fault_processes.size(); ++i) {
    const FaultProcess& p = scenario.cluster.fault_processes[i];
    const double hits = ExpectedFaultHits(p, scenario.cluster, scenario.horizon);
    total += hits;
    if (total <= limit) continue;
    const char* unit = p.kind == FaultKind::kGpuUnhealthy ? " GPUs" : " nodes";
    const double mtbf_h = p.scale.seconds() * std::tgamma(1 + 1 / p.shape) / 3600;
    ctx->Fail("/fault_processes/" + std::to_string(i),
              "expects about " + FormatCount(hits) + " fault events over the horizon (mean " +
                  FormatNumber(mtbf_h * 3600) + " s between failures + " +
                  FormatNumber(p.repair.seconds()) + " s repair, x " +
                  std::to_string(Units(p, scenario.cluster)) + unit + ", over " +
                  FormatNumber(scenario.horizon.seconds()) + " s); the limit is " +
                  std::to_string(CurrentInputLimits().fault_events) + RaiseHint("fault-events"));
    return;
  }
}

}  // namespace

int64_t PodsBeforeRetries(const WorkloadSpec& workload) {
  return std::visit(BeforeRetries{}, workload);
}

int64_t PodsBeforeRetries(const Scenario& scenario) {
  int64_t total = 0;
  for (const WorkloadSpec& w : scenario.workloads) total += PodsBeforeRetries(w);
  return total;
}

double PodsWithRetries(const WorkloadSpec& workload) { return std::visit(WithRetries{}, workload); }

int64_t GpuDevices(const NodeSpec& node) {
  if (node.type->gpu == nullptr) return 0;
  return int64_t{node.type->gpu_count} * std::max(1, node.type->gpu->compute_slices);
}

double ExpectedFaultHits(const FaultProcess& process, const ClusterSpec& cluster,
                         SimTime horizon) {
  if (horizon == SimTime::Max()) return 0;
  const double mean_failure_s = process.scale.seconds() * std::tgamma(1 + 1 / process.shape);
  const double cycle_s = mean_failure_s + process.repair.seconds();
  if (cycle_s <= 0) return 0;
  return static_cast<double>(Units(process, cluster)) * horizon.seconds() / cycle_s;
}

void CheckScenarioCost(LoadContext* ctx, const Scenario& scenario) {
  CheckPods(ctx, scenario);
  if (ctx->ok()) CheckFaults(ctx, scenario);
}

}  // namespace migsim::io
