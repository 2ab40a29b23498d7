#include "sim/engine/pod_accounting.h"

#include <numeric>

namespace migsim {

void PodCensus::Add(const Pod& pod) {
  if (pod.owner.valid() && pod.owner.value() < by_owner.size()) {
    ++by_owner[pod.owner.value()];
  } else {
    ++unowned;
  }
  Count(pod.phase);
  // Most pods were never killed and did not end for a kill reason: one test each.
  if (pod.ending == EndReason::kNone && !IsKill(pod.reason)) return;
  if (pod.ending != EndReason::kNone) ++killed[static_cast<size_t>(pod.ending)];
  const bool contradicts = pod.ending == EndReason::kNone || pod.reason != pod.ending;
  if (pod.ended_already() && pod.phase != PodPhase::kDeleted && contradicts && !unbooked_kill) {
    unbooked_kill = pod.id;
  }
}

void PodCensus::Merge(const PodCensus& other) {
  if (by_owner.size() < other.by_owner.size()) by_owner.resize(other.by_owner.size(), 0);
  for (size_t i = 0; i < other.by_owner.size(); ++i) by_owner[i] += other.by_owner[i];
  unowned += other.unowned;
  pending += other.pending;
  running += other.running;
  completed += other.completed;
  failed += other.failed;
  deleted += other.deleted;
  for (size_t r = 0; r < killed.size(); ++r) killed[r] += other.killed[r];
  if (!unbooked_kill) unbooked_kill = other.unbooked_kill;
}

namespace {

template <class Pods>
PodCensus CensusOf(const Pods& pods, size_t owners) {
  PodCensus c;
  c.by_owner.assign(owners, 0);
  for (const Pod& pod : pods) c.Add(pod);
  return c;
}

}  // namespace

PodCensus TakeCensus(std::span<const Pod> pods, size_t owners) { return CensusOf(pods, owners); }

PodCensus TakeCensus(const PodStore& pods, size_t owners) { return CensusOf(pods, owners); }

namespace {

std::string Pods(int64_t n) { return std::to_string(n) + (n == 1 ? " pod" : " pods"); }

}  // namespace

std::optional<std::string> PodAccountingError(std::span<const int64_t> submitted_by_owner,
                                              const PodCensus& found,
                                              const OwnerNamer& owner_name) {
  if (found.unowned > 0) return Pods(found.unowned) + " belong to no controller of the run";
  if (found.by_owner.size() != submitted_by_owner.size()) {
    return "the census counts " + std::to_string(found.by_owner.size()) +
           " controllers, the run has " + std::to_string(submitted_by_owner.size());
  }
  for (size_t i = 0; i < submitted_by_owner.size(); ++i) {
    const int64_t submitted = submitted_by_owner[i], have = found.by_owner[i];
    if (submitted == have) continue;
    const OwnerId owner(static_cast<OwnerId::Rep>(i));
    const std::string name = owner_name ? owner_name(owner) : "controller " + std::to_string(i);
    return name + " submitted " + Pods(submitted) + " but " + std::to_string(have) +
           (have < submitted ? " are in the run (a pod was lost)"
                             : " are in the run (a pod was added or counted twice)");
  }
  const int64_t submitted =
      std::accumulate(submitted_by_owner.begin(), submitted_by_owner.end(), int64_t{0});
  if (found.in_states() == submitted) return std::nullopt;
  return Pods(submitted) + " were submitted but the final states hold " +
         std::to_string(found.in_states()) + " (pending " + std::to_string(found.pending) +
         ", running " + std::to_string(found.running) + ", completed " +
         std::to_string(found.completed) + ", failed " + std::to_string(found.failed) +
         ", deleted " + std::to_string(found.deleted) + ")";
}

std::optional<std::string> KillAccountingError(std::span<const int64_t> booked,
                                               const PodCensus& found,
                                               const std::function<std::string(PodId)>& pod_name) {
  if (found.unbooked_kill) {
    return pod_name(*found.unbooked_kill) + " ended for a kill that was not booked as its cause";
  }
  for (size_t r = 0; r < found.killed.size(); ++r) {
    const int64_t counted = r < booked.size() ? booked[r] : 0;
    if (counted == found.killed[r]) continue;
    return "kills by cause: " + std::to_string(counted) + " " +
           std::string(EndReasonName(static_cast<EndReason>(r))) + " counted where they happened, " +
           std::to_string(found.killed[r]) + " found among the pods";
  }
  return std::nullopt;
}

}  // namespace migsim
