#include "sim/metrics/job_completion.h"

#include <algorithm>
#include <utility>

#include "sim/core/check.h"

namespace migsim {
namespace {

struct Interval {
  SimTime from, to;
};

// A job while its pods are gathered.
struct OpenJob {
  OpenJob(const JobRule& r, int32_t namespace_index) : rule(r) {
    record.namespace_index = namespace_index;
  }
  JobRule rule;
  JobRecord record;
  int64_t active = 0;        // pods pending or bound at the end
  int64_t failed = 0;        // pods that failed, preempted ones apart
  int64_t preempted = 0;     // pods that failed because they were preempted
  int64_t unsuccessful = 0;  // pods that ended without succeeding (failed or deleted)
  int64_t succeeded = 0;
  std::vector<Interval> runs;
  bool runs_sorted = true;  // by start: pods mostly start in creation order
};

void AddPod(const Pod& pod, OpenJob& job) {
  // Pods come in creation order: the first one's creation is the job's submission.
  if (job.record.pods++ == 0) job.record.submitted = pod.created;
  if (!pod.ended_already()) {
    ++job.active;
    return;
  }
  job.record.finished = std::max(job.record.finished, pod.ended);
  if (pod.has_started) {
    job.runs_sorted = job.runs_sorted && (job.runs.empty() || job.runs.back().from <= pod.started);
    job.runs.push_back({pod.started, pod.ended});
  }
  if (pod.phase == PodPhase::kSucceeded) {
    ++job.succeeded;
    return;
  }
  ++job.unsuccessful;
  if (pod.phase != PodPhase::kFailed) return;
  ++(IsDisruption(pod.reason) ? job.preempted : job.failed);
}

// The measure of the union of the intervals.
SimTime UnionLength(std::vector<Interval>& runs, bool sorted) {
  if (!sorted) {
    std::sort(runs.begin(), runs.end(),
              [](const Interval& a, const Interval& b) { return a.from < b.from; });
  }
  SimTime total = SimTime::Zero();
  SimTime covered_to = SimTime::Zero();
  for (const Interval& r : runs) {
    const SimTime from = std::max(r.from, covered_to);
    if (r.to > from) {
      total += r.to - from;
      covered_to = r.to;
    }
  }
  return total;
}

JobRecord Close(OpenJob& job) {
  JobRecord& r = job.record;
  const JobRule& rule = job.rule;
  const int64_t failures = job.failed + (rule.preemptions_count ? job.preempted : 0);
  if (job.succeeded >= rule.successes && job.active == 0) {
    r.outcome = JobOutcome::kCompleted;
  } else if ((rule.preemption_fails && job.preempted > 0) ||
             (rule.failure_limit ? failures > *rule.failure_limit
                                 : job.active == 0 && job.unsuccessful > 0)) {
    r.outcome = JobOutcome::kFailed;
  }
  r.service = UnionLength(job.runs, job.runs_sorted);
  return r;
}

}  // namespace

std::vector<JobRecord> CollectJobs(std::span<const Pod> pods,
                                   std::span<const PodTemplate> templates,
                                   std::span<const JobRule> rules) {
  std::vector<JobRecord> jobs;
  std::vector<OpenJob> open;                     // the kWholeOwner jobs
  std::vector<std::pair<size_t, size_t>> slots;  // (record, open job), closed at the end
  std::vector<int64_t> open_of_owner(rules.size(), -1);
  for (const Pod& pod : pods) {
    MIGSIM_CHECK(pod.owner.value() < rules.size(), "a pod whose owner has no job rule");
    const JobRule& rule = rules[pod.owner.value()];
    if (rule.grouping == JobGrouping::kService) continue;
    if (rule.grouping == JobGrouping::kEachPod) {
      OpenJob single(rule, templates[pod.tmpl.value()].namespace_index);
      AddPod(pod, single);
      jobs.push_back(Close(single));
      continue;
    }
    int64_t& index = open_of_owner[pod.owner.value()];
    if (index < 0) {
      index = static_cast<int64_t>(open.size());
      open.emplace_back(rule, templates[pod.tmpl.value()].namespace_index);
      slots.emplace_back(jobs.size(), open.size() - 1);
      jobs.emplace_back();
    }
    AddPod(pod, open[static_cast<size_t>(index)]);
  }
  for (const auto& [record, job] : slots) jobs[record] = Close(open[job]);
  return jobs;
}

JobStats SummarizeJobs(std::span<const JobRecord> jobs) {
  return SummarizeJobsByNamespace(jobs, 1, /*all_as_one=*/true).front();
}

std::vector<JobStats> SummarizeJobsByNamespace(std::span<const JobRecord> jobs, size_t namespaces,
                                               bool all_as_one) {
  struct Tally {
    JobStats stats;
    std::vector<double> completion, slowdown;
  };
  std::vector<Tally> tallies(namespaces);
  for (const JobRecord& j : jobs) {
    const size_t ns = all_as_one ? 0 : static_cast<size_t>(j.namespace_index);
    MIGSIM_CHECK(ns < tallies.size(), "a job of a namespace not counted");
    Tally& t = tallies[ns];
    if (j.outcome == JobOutcome::kFailed) ++t.stats.failed;
    if (j.outcome == JobOutcome::kUnfinished) ++t.stats.unfinished;
    if (j.outcome != JobOutcome::kCompleted) continue;
    ++t.stats.completed;
    const SimTime jct = j.finished - j.submitted;
    t.completion.push_back(jct.seconds());
    if (j.service > SimTime::Zero()) t.slowdown.push_back(jct.seconds() / j.service.seconds());
  }
  std::vector<JobStats> out;
  out.reserve(namespaces);
  for (Tally& t : tallies) {
    t.stats.completion = ComputeLatency(std::move(t.completion));
    t.stats.slowdown = ComputeLatency(std::move(t.slowdown));
    out.push_back(t.stats);
  }
  return out;
}

}  // namespace migsim
