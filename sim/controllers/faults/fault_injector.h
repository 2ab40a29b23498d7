#pragma once
// Faults (sim/engine/fault_spec.h): what kills nodes and GPUs during a run, as a cluster
// controller — scripted faults (at given times, on named nodes and GPUs or on members of a
// pool drawn by the run's seed), failure processes (each with its own random stream: times
// to failure and repairs), drains (kubectl drain: cordon, evictions retried every 5 s,
// maintenance, uncordon), spot notices (the node termination handler drains during the
// notice, then the instance is gone) and failed MIG applies (a window, the state `failed`,
// the old config re-applied on repair). It owns *when* each step happens and the state of
// the faults under way; what a step does to the node (NotReady, a GPU unhealthy, cordons,
// evictions, the node deleted) is the engine's mechanism, used through ClusterApi.
//
// It also reports the pools' availability (the GPUs healthy on a Ready, uncordoned node,
// out of those on provisioned nodes: a node group's slot without an instance is not counted)
// at the start and after every change a fault or a node group makes, and owns the pools
// it reports for (pools()).

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/controllers/faults/fault_draws.h"
#include "sim/core/rng.h"
#include "sim/engine/cluster_controller.h"

namespace migsim {

class FaultInjector final : public ClusterController {
 public:
  std::string_view name() const override { return "faults"; }
  void Start(ClusterApi& api) override;
  void OnTimer(ClusterApi& api, uint64_t tag) override;
  void OnNodeChanged(ClusterApi& api, NodeId node, NodeChange change) override;

  // The node pools availability is reported for (ClusterApi::RecordPoolAvailability): the
  // scenario's, or one "cluster" pool of every node when it names none. Valid after Start.
  std::span<const NodePoolRange> pools() const { return pools_; }

 private:
  // A step of a fault on a node, carried by a timer (its tag indexes steps_).
  enum class StepKind : uint8_t {
    kHit,          // a scripted fault hits (`source`: index into ClusterSpec::faults)
    kDraw,         // a failure process's failure (`source`: into ClusterSpec::fault_processes)
    kRepair,       // the node or GPU is back (`source` as for its hit, `process` telling which)
    kDrainTick,    // a drain or spot notice evicts what it may (retried every 5 s)
    kRemove,       // a spot notice ends: the node is gone
    kUncordon,     // a drain's maintenance is over
    kMigFailed,    // a failing MIG apply ends: state `failed`
    kMigRestored,  // a repair re-applied the node's previous MIG config
    kApply,        // a MIG apply that had to wait for the node's change under way
  };
  struct Step {
    StepKind kind = StepKind::kHit;
    bool process = false;
    int16_t gpu = -1;
    uint32_t node = 0;
    uint32_t source = 0;
    // The instance of the node the step belongs to (ClusterApi::node_instance): a step for
    // an instance gone since does nothing.
    uint32_t instance = 0;
  };
  // What the faults under way leave on a node beyond its conditions: spot notices (their
  // cordons go with the instance), and a failed MIG apply's previous layout and config.
  struct NodeState {
    int spot_notices = 0;
    bool mig_failed = false;
    std::vector<GpuMigSetting> mig_before;
    std::string config_before;
  };

  void Schedule(ClusterApi& api, SimTime at, const Step& step, TimerKind kind = TimerKind::kActive);
  // fault_injector.cc: hits, repairs, draws, availability.
  // The (node, GPU or -1) pairs a scripted fault hits, drawn when the fault happens.
  std::vector<std::pair<uint32_t, int>> Targets(const ClusterApi& api, const Fault& fault);
  FaultKind KindOf(const ClusterApi& api, const Step& step) const;
  std::optional<SimTime> RepairAfter(const ClusterApi& api, const Step& step);
  void Hit(ClusterApi& api, FaultKind kind, uint32_t node, int gpu, const Step& origin);
  void Repair(ClusterApi& api, const Step& step);
  void DrawNextFailure(ClusterApi& api, uint32_t process, uint32_t node, int gpu);
  void DrawSpotInterruptions(ClusterApi& api, uint32_t node);
  void ReportAvailability(ClusterApi& api, uint32_t node);
  int64_t AvailableGpus(const ClusterApi& api, uint32_t node) const;
  // fault_drains.cc: drains, spot notices, failed MIG applies.
  void StartDrain(ClusterApi& api, uint32_t node, const Step& origin);
  void DrainTick(ClusterApi& api, const Step& step);
  void RemoveNode(ClusterApi& api, uint32_t node);
  void MigApplyFails(ClusterApi& api, uint32_t node, const Step& origin);
  // False when the node is reconfiguring: the repair is queued for when that ends.
  bool RestoreMig(ClusterApi& api, const Step& step);
  void MigApplyEnds(ClusterApi& api, const Step& step);

  Rng fault_rng_{0};               // scripted faults' draws of pool members
  std::vector<Rng> process_rngs_;  // by failure process (FaultProcessRng)
  std::vector<NodePoolRange> pools_;
  std::vector<uint32_t> pool_of_;
  std::vector<NodeState> nodes_;
  // The steps the queued timers carry, by tag; slots of timers that ran are reused.
  std::vector<Step> steps_;
  std::vector<uint32_t> free_steps_;
};

}  // namespace migsim
