#include "sim/metrics/job_completion.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "sim/core/check.h"

namespace migsim {

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
  size_t compact_at = 64;   // runs merged into disjoint ones when there are this many
};

namespace {

// Merges the job's overlapping runs: the union, and so the service time, is the same (in
// whole microseconds), and a job of many pods keeps about as many runs as it had periods
// of service, not one per pod.
void Compact(OpenJob& job) {
  std::vector<Interval>& runs = job.runs;
  if (!job.runs_sorted) {
    std::sort(runs.begin(), runs.end(),
              [](const Interval& a, const Interval& b) { return a.from < b.from; });
  }
  size_t kept = 0;
  for (const Interval& r : runs) {
    if (kept > 0 && r.from <= runs[kept - 1].to) {
      runs[kept - 1].to = std::max(runs[kept - 1].to, r.to);
    } else {
      runs[kept++] = r;
    }
  }
  runs.resize(kept);
  job.runs_sorted = true;
  job.compact_at = std::max<size_t>(64, 2 * kept);
}

void AddPod(const Pod& pod, OpenJob& job) {
  // The first pod's creation is the job's submission (pods may come in any order).
  if (job.record.pods++ == 0 || pod.created < job.record.submitted) {
    job.record.submitted = pod.created;
  }
  if (!pod.ended_already()) {
    ++job.active;
    return;
  }
  job.record.finished = std::max(job.record.finished, pod.ended);
  if (pod.has_started) {
    job.runs_sorted = job.runs_sorted && (job.runs.empty() || job.runs.back().from <= pod.started);
    job.runs.push_back({pod.started, pod.ended});
    if (job.runs.size() >= job.compact_at) Compact(job);
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
  std::vector<JobTally> tallies(namespaces, JobTally(SIZE_MAX));
  for (const JobRecord& j : jobs) {
    const size_t ns = all_as_one ? 0 : static_cast<size_t>(j.namespace_index);
    MIGSIM_CHECK(ns < tallies.size(), "a job of a namespace not counted");
    tallies[ns].Count(j);
  }
  std::vector<JobStats> out;
  out.reserve(namespaces);
  for (JobTally& t : tallies) out.push_back(t.Finish());
  return out;
}

void JobTally::Count(const JobRecord& j) {
  if (j.outcome == JobOutcome::kFailed) ++stats.failed;
  if (j.outcome == JobOutcome::kUnfinished) ++stats.unfinished;
  if (j.outcome != JobOutcome::kCompleted) return;
  ++stats.completed;
  const SimTime jct = j.finished - j.submitted;
  completion.Add(jct.seconds());
  if (j.service > SimTime::Zero()) slowdown.Add(jct.seconds() / j.service.seconds());
}

JobStats JobTally::Finish() {
  stats.completion = completion.Finish();
  stats.slowdown = slowdown.Finish();
  return stats;
}

JobSummary::JobSummary(std::span<const PodTemplate> templates, std::span<const JobRule> rules,
                       size_t namespaces, size_t exact_limit)
    : templates_(templates),
      rules_(rules),
      open_of_owner_(rules.size(), -1),
      all_(exact_limit),
      by_namespace_(namespaces, JobTally(exact_limit)) {}

JobSummary::~JobSummary() = default;

void JobSummary::Add(const Pod& pod) {
  MIGSIM_CHECK(pod.owner.value() < rules_.size(), "a pod whose owner has no job rule");
  const JobRule& rule = rules_[pod.owner.value()];
  if (rule.grouping == JobGrouping::kService) return;
  if (rule.grouping == JobGrouping::kEachPod) {
    OpenJob single(rule, templates_[pod.tmpl.value()].namespace_index);
    AddPod(pod, single);
    Count(Close(single));
    return;
  }
  int64_t& index = open_of_owner_[pod.owner.value()];
  if (index < 0) {
    index = static_cast<int64_t>(open_.size());
    open_.emplace_back(rule, templates_[pod.tmpl.value()].namespace_index);
  }
  AddPod(pod, open_[static_cast<size_t>(index)]);
}

// SummarizeJobsByNamespace's tally of one job, overall and in its namespace.
void JobSummary::Count(const JobRecord& j) {
  const auto ns = static_cast<size_t>(j.namespace_index);
  MIGSIM_CHECK(ns < by_namespace_.size(), "a job of a namespace not counted");
  all_.Count(j);
  by_namespace_[ns].Count(j);
}

JobSummary::Stats JobSummary::Finish() {
  for (OpenJob& job : open_) Count(Close(job));
  open_.clear();
  Stats out;
  out.all = all_.Finish();
  for (JobTally& t : by_namespace_) out.by_namespace.push_back(t.Finish());
  return out;
}

}  // namespace migsim
