#include "sim/metrics/unserved_demand.h"

#include <algorithm>
#include <cstdint>

#include "sim/core/text.h"

namespace migsim {
namespace {

// A pod its controller deleted before it ever bound.
bool DeletedUnbound(const Pod& pod) { return !WasBound(pod) && pod.phase == PodPhase::kDeleted; }

// Counts one pod, pending over [created, created + wait), into its group.
void CountInto(WaitingGroup& group, const Pod& pod, double wait_s) {
  ++group.pods;
  group.longest_wait_s = std::max(group.longest_wait_s, wait_s);
  group.pending.mean += wait_s;  // the sum of waits, until Finish divides it
  if (WasBound(pod)) return;
  ++group.never_bound;
  if (DeletedUnbound(pod)) ++group.deleted_unbound;
}

// The time-weighted mean pending is the pods' pending time over the run's.
void Finish(WaitingGroup& group, int64_t peak, SimTime end) {
  group.pending.peak = peak;
  group.pending.mean = end > SimTime::Zero() ? group.pending.mean / end.seconds() : 0;
}

// The groups with pods, named and finished; `peaks` by group.
std::vector<WaitingGroup> WithPods(std::vector<WaitingGroup> groups,
                                   const std::vector<int64_t>& peaks, SimTime end,
                                   const std::function<std::string(size_t)>& name) {
  std::vector<WaitingGroup> out;
  for (size_t i = 0; i < groups.size(); ++i) {
    if (groups[i].pods == 0) continue;
    groups[i].name = name(i);
    Finish(groups[i], i < peaks.size() ? peaks[i] : 0, end);
    out.push_back(std::move(groups[i]));
  }
  return out;
}

}  // namespace

SimTime WaitOf(const Pod& pod, SimTime end) {
  if (WasBound(pod)) return pod.bound - pod.created;
  return (pod.ended_already() ? pod.ended : end) - pod.created;
}

void UnservedDemandSummary::Add(const Pod& pod, SimTime end) {
  const double wait_s = WaitOf(pod, end).seconds();
  CountInto(all_, pod, wait_s);
  if (DeletedUnbound(pod)) deleted_waits_.Add(wait_s);
  const size_t owner = pod.owner.value();
  if (owner >= workloads_.size()) workloads_.resize(owner + 1);
  CountInto(workloads_[owner], pod, wait_s);
  CountInto(by_namespace_[static_cast<size_t>(templates_[pod.tmpl.value()].namespace_index)], pod,
            wait_s);
}

UnservedDemand UnservedDemandSummary::Finish(
    const PendingRecorder& pending, SimTime end,
    const std::function<std::string(OwnerId)>& workload_name) {
  WaitingGroup all = all_;
  migsim::Finish(all, pending.Peak(end), end);
  UnservedDemand d{.deleted_unbound = all.deleted_unbound,
                   .deleted_unbound_wait = deleted_waits_.Finish(),
                   .never_bound = all.never_bound,
                   .longest_wait_s = all.longest_wait_s,
                   .pending = all.pending,
                   .workloads = {},
                   .namespaces = {}};
  d.workloads = WithPods(std::move(workloads_), pending.PeaksByOwner(end), end, [&](size_t i) {
    return workload_name(OwnerId(static_cast<OwnerId::Rep>(i)));
  });
  d.namespaces = WithPods(std::move(by_namespace_), pending.PeaksByNamespace(end), end,
                          [&](size_t i) { return namespaces_[i]; });
  return d;
}

UnservedDemand ComputeUnservedDemand(std::span<const Pod> pods,
                                     std::span<const PodTemplate> templates,
                                     std::span<const std::string> namespaces,
                                     const PendingRecorder& pending, SimTime end,
                                     const std::function<std::string(OwnerId)>& workload_name) {
  UnservedDemandSummary summary(templates, namespaces, SIZE_MAX);
  for (const Pod& pod : pods) summary.Add(pod, end);
  return summary.Finish(pending, end, workload_name);
}

std::string DescribeUnboundDeletions(const UnservedDemand& d) {
  if (d.deleted_unbound == 0) return "";
  std::string from;
  for (const WaitingGroup& w : d.workloads) {
    if (w.deleted_unbound == 0) continue;
    from += (from.empty() ? "" : ", ") + w.name + " " + std::to_string(w.deleted_unbound);
  }
  return std::to_string(d.deleted_unbound) + (d.deleted_unbound == 1 ? " pod was" : " pods were") +
         " deleted without ever binding (" + from + "), the longest after " +
         HumanDuration(d.deleted_unbound_wait.max_s);
}

std::string HumanDuration(double s) {
  if (s < 60) return FormatFixed(s, 1) + " s";
  if (s < 3600) return FormatFixed(s / 60, 1) + " min";
  return FormatFixed(s / 3600, 1) + " h";
}

}  // namespace migsim
