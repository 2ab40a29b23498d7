#pragma once
// Pod accounting: every pod a controller submitted is, at the end of a run, in the run's
// pod list exactly once, under that controller, in exactly one final state.
//
// The engine counts submissions per controller as they happen (Engine::Submit), apart
// from where pods are stored, and compares them with a census of the pods at the end of
// Engine::Run (engine_accounting.cc): a pod lost, duplicated or moved to another owner
// makes the counts differ. The comparison is a pure function so tests can break it.

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sim/core/ids.h"
#include "sim/engine/pod.h"
#include "sim/engine/pod_store.h"

namespace migsim {

// The pods of a run as found at its end: by the controller that owns them and by state.
struct PodCensus {
  std::vector<int64_t> by_owner;  // indexed by OwnerId
  int64_t unowned = 0;            // pods whose owner is no controller of the run
  int64_t pending = 0;
  int64_t running = 0;  // bound: starting or running
  int64_t completed = 0;
  int64_t failed = 0;
  int64_t deleted = 0;
  // Killed pods by cause (Pod::ending, indexed by EndReason), whether they ended since or
  // not; and the first pod found whose end contradicts its kill: it ended for a kill reason
  // (IsKill) that no kill recorded, or for another reason than its kill's (other than
  // being deleted by its controller meanwhile).
  std::array<int64_t, kEndReasonCount> killed{};
  std::optional<PodId> unbooked_kill;

  // Adds a pod in `phase` to its state's count. Inline: it runs once per pod.
  void Count(PodPhase phase) {
    switch (phase) {
      case PodPhase::kPending: ++pending; break;
      case PodPhase::kStarting:
      case PodPhase::kRunning: ++running; break;
      case PodPhase::kSucceeded: ++completed; break;
      case PodPhase::kFailed: ++failed; break;
      case PodPhase::kDeleted: ++deleted; break;
    }
  }
  int64_t in_states() const { return pending + running + completed + failed + deleted; }
  // Counts one pod (by_owner sized to the owners first).
  void Add(const Pod& pod);
  // Adds the counts of `other`, a census of other pods with as many owners.
  void Merge(const PodCensus& other);
};

// Counts `pods` owned by controllers 0 .. owners - 1.
PodCensus TakeCensus(std::span<const Pod> pods, size_t owners);
// The same of the pods a store holds (released ones are not counted).
PodCensus TakeCensus(const PodStore& pods, size_t owners);

// nullopt when the kills counted by cause where they happened (`booked`, by EndReason)
// are the kills the census found, and every pod that ended for a kill reason was killed
// for it; otherwise the first difference. `pod_name` names census.unbooked_kill.
std::optional<std::string> KillAccountingError(std::span<const int64_t> booked,
                                               const PodCensus& found,
                                               const std::function<std::string(PodId)>& pod_name);

// A controller's name for messages ("Deployment/web"); unset: "controller N".
using OwnerNamer = std::function<std::string(OwnerId)>;

// nullopt when the pods found are the pods submitted: `found` has as many controllers as
// `submitted_by_owner`, each with the pods it submitted, no pod without an owner, and
// the five final states together hold every submitted pod once. Otherwise the first
// difference, with the counts on both sides.
std::optional<std::string> PodAccountingError(std::span<const int64_t> submitted_by_owner,
                                              const PodCensus& found,
                                              const OwnerNamer& owner_name = {});

}  // namespace migsim
