#pragma once
// Jobs — what a user submitted as one unit — grouped from a run's pods, with their
// completion time and slowdown.
//
// A job is all the pods of one Job, Workflow or bare-pod workload, or one pod of a trace
// replay (trace files, pod lists, Arrivals: each entry is its own job). Deployments are
// services, not jobs: their pods belong to none. A job exists once its first pod was
// created; its namespace is its pods' (a workload's pods share one).
//
// Completion time (JCT): the first pod's creation -> the last pod's end, for completed jobs.
// Service time: how long at least one of its pods was running, the union of its pods'
// [first start, end] intervals, failed attempts included: pods run one after another add
// up, pods running side by side count once. Slowdown: JCT / service time, >= 1 since every
// run lies within the job's lifetime; 1 for a job that never waited (in the queue, for
// start-up, back-off or a workflow step's delay). Jobs that never ran for a positive time
// have no slowdown.

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "sim/engine/pod.h"
#include "sim/metrics/latency_summary.h"
#include "sim/metrics/run_metrics.h"

namespace migsim {

enum class JobGrouping : uint8_t {
  kService,     // a Deployment: its pods are no job
  kWholeOwner,  // all the controller's pods are one job
  kEachPod,     // each pod is a job of its own
};

// How one controller's pods form jobs, and when a kWholeOwner job is over.
struct JobRule {
  JobGrouping grouping = JobGrouping::kWholeOwner;
  // Completed once this many of its pods succeeded (Job completions, workflow work items,
  // bare pods: no controller reruns a work item that succeeded) and none of its pods is
  // left pending or bound.
  int64_t successes = 1;
  // Failed once more pods than this failed (a Job's backoffLimit). Without a limit: failed
  // when not completed, no pod is left pending or bound and one of them did not succeed.
  std::optional<int64_t> failure_limit = std::nullopt;
  // A Job's podFailurePolicy for disrupted pods (IsDisruption: preempted, evicted, on a lost
  // or removed node; the DisruptionTarget condition): whether they count
  // towards `failure_limit`, and whether one fails the job at once.
  bool preemptions_count = true;
  bool preemption_fails = false;
};

enum class JobOutcome : uint8_t { kCompleted, kFailed, kUnfinished };

struct JobRecord {
  int32_t namespace_index = 0;
  JobOutcome outcome = JobOutcome::kUnfinished;
  SimTime submitted{};  // its first pod's creation
  SimTime finished{};   // its last pod's end (meaningful for completed jobs)
  SimTime service{};    // see the file comment
  int64_t pods = 0;
};

// The run's jobs, in the order of their first pods. `templates` is indexed by TemplateId,
// `rules` by OwnerId. REQUIRES: a rule for every pod's owner.
std::vector<JobRecord> CollectJobs(std::span<const Pod> pods,
                                   std::span<const PodTemplate> templates,
                                   std::span<const JobRule> rules);

// Counts, completion time and slowdown of `jobs`.
JobStats SummarizeJobs(std::span<const JobRecord> jobs);
// The same per namespace: entry i is namespace i's (REQUIRES: every job's namespace_index <
// `namespaces`); with `all_as_one`, one entry for all the jobs.
std::vector<JobStats> SummarizeJobsByNamespace(std::span<const JobRecord> jobs, size_t namespaces,
                                               bool all_as_one = false);

// The jobs' statistics one pod at a time, without keeping the jobs: a job of one pod is
// counted as its pod is added, a kWholeOwner job when Finish closes it. Pods may come in
// any order (a job's submission is its pods' earliest creation); the statistics are
// SummarizeJobs' and SummarizeJobsByNamespace's of CollectJobs' records, exactly while
// a summary holds at most `exact_limit` completed jobs (LatencySummary).
struct OpenJob;

// The statistics of jobs counted one at a time (SummarizeJobs' of those jobs).
struct JobTally {
  explicit JobTally(size_t exact_limit) : completion(exact_limit), slowdown(exact_limit) {}
  void Count(const JobRecord& job);
  JobStats Finish();  // the tally is spent

  JobStats stats;
  LatencySummary completion, slowdown;
};

class JobSummary {
 public:
  // `templates` and `rules` must outlive the summary.
  JobSummary(std::span<const PodTemplate> templates, std::span<const JobRule> rules,
             size_t namespaces, size_t exact_limit = kExactValues);
  JobSummary(const JobSummary&) = delete;
  JobSummary& operator=(const JobSummary&) = delete;
  ~JobSummary();

  void Add(const Pod& pod);
  struct Stats {
    JobStats all;
    std::vector<JobStats> by_namespace;  // by PodTemplate::namespace_index
  };
  Stats Finish();

 private:
  void Count(const JobRecord& job);

  std::span<const PodTemplate> templates_;
  std::span<const JobRule> rules_;
  std::vector<OpenJob> open_;  // the kWholeOwner jobs, by first pod
  std::vector<int64_t> open_of_owner_;
  JobTally all_;
  std::vector<JobTally> by_namespace_;
};

}  // namespace migsim
