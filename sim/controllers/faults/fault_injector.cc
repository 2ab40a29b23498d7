// Faults: scripted ones and failure processes hitting nodes and GPUs, their repairs, the
// spot notices drawn for each node group instance, and the pools' availability. Drains,
// spot notices' steps and failed MIG applies are in fault_drains.cc.
//
// Only a run whose scenario has faults has this controller (make_controllers.cc): the
// no-fault path does no per-pod or per-event work for them.

#include "sim/controllers/faults/fault_injector.h"

#include <algorithm>

namespace migsim {

void FaultInjector::Start(ClusterApi& api) {
  const ClusterSpec& cluster = api.cluster();
  const size_t n = cluster.nodes.size();
  nodes_.resize(n);
  fault_rng_ = Rng(api.seed() ^ 0xd1b54a32d192ed03ULL);
  pools_ = cluster.pools;
  if (pools_.empty()) pools_.push_back({"cluster", 0, static_cast<uint32_t>(n)});
  pool_of_.assign(n, 0);
  for (size_t p = 0; p < pools_.size(); ++p) {
    for (uint32_t i = 0; i < pools_[p].count; ++i) {
      pool_of_[pools_[p].first + i] = static_cast<uint32_t>(p);
    }
  }
  for (size_t i = 0; i < cluster.faults.size(); ++i) {
    Schedule(api, cluster.faults[i].at,
             Step{.kind = StepKind::kHit, .source = static_cast<uint32_t>(i)});
  }
  for (size_t p = 0; p < cluster.fault_processes.size(); ++p) {
    const FaultProcess& process = cluster.fault_processes[p];
    process_rngs_.push_back(FaultProcessRng(api.seed(), process.name));
    // A spot instance's time to its notice is drawn when it runs (DrawSpotInterruptions).
    if (process.kind == FaultKind::kSpotInterruption) continue;
    for (uint32_t node : process.nodes) {
      const int gpus = static_cast<int>(api.node_runtime(NodeId(node)).gpus().size());
      if (process.kind != FaultKind::kGpuUnhealthy) {
        DrawNextFailure(api, static_cast<uint32_t>(p), node, -1);
        continue;
      }
      for (int g = 0; g < gpus; ++g) DrawNextFailure(api, static_cast<uint32_t>(p), node, g);
    }
  }
  for (const NodePoolRange& pool : pools_) {
    if (pool.count > 0) ReportAvailability(api, pool.first);
  }
}

void FaultInjector::Schedule(ClusterApi& api, SimTime at, const Step& step, TimerKind kind) {
  uint32_t slot = 0;
  if (free_steps_.empty()) {
    slot = static_cast<uint32_t>(steps_.size());
    steps_.push_back(step);
  } else {
    slot = free_steps_.back();
    free_steps_.pop_back();
    steps_[slot] = step;
  }
  api.SetTimer(at, slot, kind);
}

void FaultInjector::OnTimer(ClusterApi& api, uint64_t tag) {
  const Step e = steps_[tag];
  free_steps_.push_back(static_cast<uint32_t>(tag));
  const ClusterSpec& cluster = api.cluster();
  switch (e.kind) {
    case StepKind::kHit:
      for (const auto& [node, gpu] : Targets(api, cluster.faults[e.source])) {
        Hit(api, cluster.faults[e.source].kind, node, gpu, e);
      }
      return;
    case StepKind::kDraw:
      // A spot draw for an instance gone since does nothing.
      if (api.node_instance(NodeId(e.node)) != e.instance) return;
      [[fallthrough]];
    case StepKind::kApply:
      Hit(api, KindOf(api, e), e.node, e.gpu, e);
      return;
    case StepKind::kRepair:
      Repair(api, e);
      return;
    case StepKind::kDrainTick:
      DrainTick(api, e);
      return;
    case StepKind::kRemove:
      if (api.node_instance(NodeId(e.node)) == e.instance) RemoveNode(api, e.node);
      return;
    case StepKind::kUncordon:
      api.Uncordon(NodeId(e.node));
      ReportAvailability(api, e.node);
      return;
    case StepKind::kMigFailed:
    case StepKind::kMigRestored:
      MigApplyEnds(api, e);
      return;
  }
}

// A node group's instance: each spot process on the node draws the time to its notice; the
// spot notices' cordons go with a terminated instance (a launch in its slot starts
// uncordoned).
void FaultInjector::OnNodeChanged(ClusterApi& api, NodeId node, NodeChange change) {
  const uint32_t n = node.value();
  switch (change) {
    case NodeChange::kStarted:
      DrawSpotInterruptions(api, n);
      return;
    case NodeChange::kReady:
      ReportAvailability(api, n);
      DrawSpotInterruptions(api, n);
      return;
    case NodeChange::kTerminated:
      for (; nodes_[n].spot_notices > 0; --nodes_[n].spot_notices) api.Uncordon(node);
      ReportAvailability(api, n);
      return;
    case NodeChange::kRemoved:
      ReportAvailability(api, n);
      return;
  }
}

// Without a horizon a run ends when only draws (and flushes) are left: failures that no
// work is left to suffer. With one, the draws run to the horizon like any event.
void FaultInjector::DrawNextFailure(ClusterApi& api, uint32_t process, uint32_t node, int gpu) {
  const SimTime at =
      api.now() + DrawTimeToFailure(api.cluster().fault_processes[process], process_rngs_[process]);
  Schedule(api, at,
           Step{.kind = StepKind::kDraw,
                .process = true,
                .gpu = static_cast<int16_t>(gpu),
                .node = node,
                .source = process,
                .instance = api.node_instance(NodeId(node))},
           TimerKind::kIdleWithoutHorizon);
}

// A draw that outlives its instance does nothing (OnTimer).
void FaultInjector::DrawSpotInterruptions(ClusterApi& api, uint32_t node) {
  const std::vector<FaultProcess>& processes = api.cluster().fault_processes;
  for (size_t p = 0; p < processes.size(); ++p) {
    const FaultProcess& process = processes[p];
    if (process.kind != FaultKind::kSpotInterruption ||
        !std::binary_search(process.nodes.begin(), process.nodes.end(), node)) {
      continue;
    }
    DrawNextFailure(api, static_cast<uint32_t>(p), node, -1);
  }
}

std::vector<std::pair<uint32_t, int>> FaultInjector::Targets(const ClusterApi& api,
                                                             const Fault& fault) {
  const FaultTarget& t = fault.target;
  std::vector<std::pair<uint32_t, int>> hits;
  if (!t.gpus.empty()) {
    for (int g : t.gpus) hits.emplace_back(t.nodes.front(), g);
    return hits;
  }
  // Named nodes: all of them (every GPU of each, for a GPU fault); a pool: a draw of them.
  std::vector<std::pair<uint32_t, int>> candidates;
  for (uint32_t node : t.nodes) {
    if (fault.kind != FaultKind::kGpuUnhealthy) {
      candidates.emplace_back(node, -1);
      continue;
    }
    const int gpus = static_cast<int>(api.node_runtime(NodeId(node)).gpus().size());
    for (int g = 0; g < gpus; ++g) candidates.emplace_back(node, g);
  }
  if (!t.drawn) return candidates;
  const uint32_t count = std::min<uint32_t>(t.count, static_cast<uint32_t>(candidates.size()));
  for (uint32_t i : ChooseDistinct(static_cast<uint32_t>(candidates.size()), count, fault_rng_)) {
    hits.push_back(candidates[i]);
  }
  return hits;
}

FaultKind FaultInjector::KindOf(const ClusterApi& api, const Step& e) const {
  return e.process ? api.cluster().fault_processes[e.source].kind
                   : api.cluster().faults[e.source].kind;
}

// A scripted fault's repair time, or a failure process's drawn one.
std::optional<SimTime> FaultInjector::RepairAfter(const ClusterApi& api, const Step& e) {
  if (!e.process) return api.cluster().faults[e.source].repair;
  return DrawRepairTime(api.cluster().fault_processes[e.source], process_rngs_[e.source]);
}

void FaultInjector::Hit(ClusterApi& api, FaultKind kind, uint32_t node, int gpu,
                        const Step& origin) {
  const NodeId id(node);
  // Nothing left to fail; an absent node group node has no instance to fail.
  const NodeConditions& conditions = api.node_conditions(id);
  if (conditions.removed || conditions.absent) return;
  if (kind == FaultKind::kMigReconfigureFailed && api.node_runtime(id).reconfiguring()) {
    // The MIG manager finishes the change under way first (as a relabel waits).
    Step later = origin;
    later.kind = StepKind::kApply;
    later.node = node;
    Schedule(api, api.reconfiguring_until(id), later);
    return;
  }
  api.RecordFault({.kind = kind, .repaired = false, .node = id, .gpu = gpu});
  Step repair = origin;
  repair.kind = StepKind::kRepair;
  repair.node = node;
  repair.gpu = static_cast<int16_t>(gpu);
  const ClusterSpec& cluster = api.cluster();
  switch (kind) {
    case FaultKind::kNodeLost:
      api.SetNodeNotReady(id, origin.process ? cluster.fault_processes[origin.source].toleration
                                             : cluster.faults[origin.source].toleration);
      break;
    case FaultKind::kGpuUnhealthy:
      api.SetGpuHealth(id, gpu, false);
      break;
    case FaultKind::kSpotInterruption:
    case FaultKind::kDrain:
      StartDrain(api, node, origin);
      break;
    case FaultKind::kMigReconfigureFailed:
      MigApplyFails(api, node, origin);
      break;
  }
  if (kind == FaultKind::kNodeLost || kind == FaultKind::kGpuUnhealthy ||
      kind == FaultKind::kMigReconfigureFailed) {
    if (std::optional<SimTime> after = RepairAfter(api, origin)) {
      Schedule(api, api.now() + *after, repair);
    }
  }
  ReportAvailability(api, node);
}

void FaultInjector::Repair(ClusterApi& api, const Step& e) {
  const NodeId id(e.node);
  const FaultKind kind = KindOf(api, e);
  if (!api.node_conditions(id).removed) {
    if (kind == FaultKind::kNodeLost) {
      api.SetNodeReady(id);
    } else if (kind == FaultKind::kGpuUnhealthy) {
      api.SetGpuHealth(id, e.gpu, true);
    } else if (kind == FaultKind::kMigReconfigureFailed && !RestoreMig(api, e)) {
      return;  // retried once the node's change under way ends
    }
    api.RecordFault({.kind = kind, .repaired = true, .node = id, .gpu = e.gpu});
    ReportAvailability(api, e.node);
  }
  if (e.process) DrawNextFailure(api, e.source, e.node, e.gpu);
}

int64_t FaultInjector::AvailableGpus(const ClusterApi& api, uint32_t node) const {
  const NodeId id(node);
  if (!api.nodes()[node].schedulable) return 0;
  const NodeConditions& conditions = api.node_conditions(id);
  const NodeState& state = nodes_[node];
  const bool mig_failed = state.mig_failed && api.node_runtime(id).mig_state() == "failed";
  int64_t available = 0;
  for (size_t g = 0; g < conditions.gpu_unhealthy.size(); ++g) {
    const bool mig_gone = mig_failed && state.mig_before[g].mig_enabled;
    if (conditions.gpu_unhealthy[g] == 0 && !mig_gone) ++available;
  }
  return available;
}

void FaultInjector::ReportAvailability(ClusterApi& api, uint32_t node) {
  const uint32_t p = pool_of_[node];
  int64_t available = 0, total = 0;
  for (uint32_t i = pools_[p].first; i < pools_[p].first + pools_[p].count; ++i) {
    // A node group's slot without an instance (never launched, scaled down, or launched and
    // not yet Ready) is capacity nobody provisioned, not capacity lost: out of the pool's
    // total. A node deleted for good (a fixed node's spot termination) stays in it, lost.
    const NodeConditions& conditions = api.node_conditions(NodeId(i));
    if (conditions.absent) continue;
    available += AvailableGpus(api, i);
    total += static_cast<int64_t>(conditions.gpu_unhealthy.size());
  }
  api.RecordPoolAvailability(p, available, total);
}

}  // namespace migsim
