#pragma once
// Workload descriptions, as validated from a scenario file. Each becomes one controller.

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "sim/core/sim_time.h"
#include "sim/engine/pod.h"
#include "workloads/arrival_process.h"
#include "workloads/load_series.h"

namespace migsim {

// `count` bare pods created at `at` (restartPolicy Never: a failed pod stays failed).
struct PodGroupSpec {
  std::string name{};
  SimTime at{};
  int count = 1;
  TemplateId tmpl{};
};

struct ScaleEvent {
  SimTime at{};
  int replicas = 0;
};

// A Deployment: `replicas` pods from `at`, rescaled by `scale` events. Its pods run
// until deleted; a pod that fails is replaced after a back-off.
struct DeploymentSpec {
  std::string name{};
  SimTime at{};
  int replicas = 1;
  std::vector<ScaleEvent> scale{};  // sorted by time (an HPA's decisions, when it has one)
  TemplateId tmpl{};
  // The requests per second the Deployment serves, when known (its HPA's metric): for
  // "$ per 1,000 requests".
  std::optional<LoadSeries> load{};
};

// What a Job does with a pod that failed because it was disrupted (preempted: the pod
// condition DisruptionTarget), by its podFailurePolicy: count it towards backoffLimit
// (Kubernetes' behaviour without a policy), ignore it (replace it, count nothing) or fail
// the whole Job.
enum class DisruptionAction { kCount, kIgnore, kFailJob };

// A Job: runs pods until `completions` succeeded, at most `parallelism` at a time;
// fails once more than `backoff_limit` pods failed.
struct JobSpec {
  std::string name{};
  SimTime at{};
  int completions = 1;
  int parallelism = 1;
  int backoff_limit = 6;
  TemplateId tmpl{};
  DisruptionAction on_disruption = DisruptionAction::kCount;
  // Kueue's LocalQueue (kueue.x-k8s.io/queue-name), a KueueSpec::local_queues index; -1:
  // not managed by Kueue.
  int32_t local_queue = -1;
};

enum class RetryPolicy { kAlways, kOnFailure, kOnError };

struct RetryStrategy {
  int limit = 0;                                 // retries after the first attempt
  RetryPolicy policy = RetryPolicy::kOnFailure;  // Argo's default
};

struct WorkflowStepSpec {
  std::string name{};
  TemplateId tmpl{};
  std::vector<int> depends;        // indices of earlier-or-later steps in the workflow
  std::vector<std::string> items;  // fan-out: one pod per item; empty = one pod
  RetryStrategy retry{};
};

// An Argo-style Workflow: a DAG of steps; a step starts `step_delay` after all its
// dependencies succeeded; at most `parallelism` pods exist at once (0 = unlimited).
struct WorkflowSpec {
  std::string name{};
  SimTime at{};
  int parallelism = 0;
  SimTime step_delay{};
  std::vector<WorkflowStepSpec> steps{};
};

// One pod of a replayed trace: created `at` after the workload starts, stamped from `tmpl`,
// running for `run` on whatever device it gets (nullopt: its template's job class decides).
struct TraceEntry {
  SimTime at{};
  TemplateId tmpl{};
  std::optional<SimTime> run{};
  std::string name{};  // the pod's name in the trace
};

// What an Arrivals workload was generated from, for comparisons with queueing theory.
struct ArrivalsModel {
  struct Class {
    std::string name{};
    TemplateId tmpl{};
    double fraction = 1;                       // of the arrivals (normalised weight)
    std::optional<RunTimeDistribution> run{};  // none: the template's job class decides
  };
  std::optional<double> rate_per_s{};  // none: a piecewise rate
  std::vector<Class> classes{};
};

// A trace replay (an openb pod CSV, a pod list, or generated arrivals): each entry becomes
// one bare pod at its time (restartPolicy Never: a failed pod stays failed).
struct TraceSpec {
  std::string name{};
  std::vector<TraceEntry> entries{};        // sorted by `at` (stable)
  std::optional<ArrivalsModel> arrivals{};  // for a generated trace (kind Arrivals)
};

// A distributed training job (a PyTorchJob or JobSet): `workers` pods of `tmpl` scheduled
// as one gang (minMember = workers) and restarted together when one fails, at most
// `backoff_limit` times. It succeeds when every worker succeeded.
struct DistributedJobSpec {
  std::string name{};
  SimTime at{};
  int workers = 1;
  TemplateId tmpl{};  // a gang template (PodTemplate::gang)
  bool one_per_node = true;
  std::string topology_key{};                       // empty: none
  SimTime schedule_timeout = SimTime::Seconds(60);  // the plugin's default
  int backoff_limit = 6;                            // a Kubernetes Job's default
  // Kueue's LocalQueue (as JobSpec::local_queue): the job is admitted whole; -1: not
  // managed by Kueue.
  int32_t local_queue = -1;
};

using WorkloadSpec = std::variant<PodGroupSpec, DeploymentSpec, JobSpec, WorkflowSpec, TraceSpec,
                                  DistributedJobSpec>;

}  // namespace migsim
