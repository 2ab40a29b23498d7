#include "tests/support/pod_ledger.h"

#include <utility>

namespace migsim::test {
namespace {

bool Ended(PodPhase phase) {
  return phase == PodPhase::kSucceeded || phase == PodPhase::kFailed ||
         phase == PodPhase::kDeleted;
}

}  // namespace

void PodLedger::OnPodSubmitted(SimTime, const Pod& pod) {
  if (pod.id.value() != state_.size()) {
    errors_.push_back("pod" + std::to_string(pod.id.value()) + " submitted after " +
                      std::to_string(state_.size()) + " pods");
  }
  state_.push_back(PodPhase::kPending);
}

void PodLedger::OnPodBound(SimTime, const Pod& pod) {
  const uint32_t id = pod.id.value();
  if (id >= state_.size() || state_[id] != PodPhase::kPending) {
    errors_.push_back("pod" + std::to_string(id) + " bound when not pending");
    return;
  }
  state_[id] = PodPhase::kRunning;
}

void PodLedger::OnPodEnded(SimTime, const Pod& pod) {
  const uint32_t id = pod.id.value();
  if (id >= state_.size() || Ended(state_[id]) || !Ended(pod.phase)) {
    errors_.push_back("pod" + std::to_string(id) + " ended twice, unsubmitted or not ended");
    return;
  }
  state_[id] = pod.phase;
}

PodCensus PodLedger::States() const {
  PodCensus c;
  for (PodPhase phase : state_) c.Count(phase);
  return c;
}

std::vector<std::string> PodLedger::Differences(const PodCounts& counts) const {
  const PodCensus states = States();
  const std::pair<const char*, std::pair<int64_t, int64_t>> rows[] = {
      {"submitted", {counts.submitted, submitted()}},
      {"completed", {counts.completed, states.completed}},
      {"failed", {counts.failed, states.failed}},
      {"running", {counts.running, states.running}},
      {"pending", {counts.pending, states.pending}},
      {"deleted", {counts.deleted, states.deleted}}};
  std::vector<std::string> out;
  for (const auto& [name, values] : rows) {
    if (values.first == values.second) continue;
    out.push_back(std::string(name) + ": " + std::to_string(values.first) +
                  " in the metrics, " + std::to_string(values.second) + " in the ledger");
  }
  return out;
}

}  // namespace migsim::test
