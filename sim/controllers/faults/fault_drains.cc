// The faults that take a node out in steps: a drain (kubectl drain: cordon, evict through
// the Eviction API, maintenance, uncordon), a spot interruption (the node termination
// handler drains during the notice, then the instance is gone), and a MIG apply that
// fails (nvidia.com/mig.config.state=failed until a repair re-applies the old config).

#include "sim/controllers/faults/fault_injector.h"

namespace migsim {

void FaultInjector::StartDrain(ClusterApi& api, uint32_t node, const Step& origin) {
  api.Cordon(NodeId(node));
  Step tick = origin;
  tick.node = node;
  tick.instance = api.node_instance(NodeId(node));
  if (KindOf(api, origin) == FaultKind::kSpotInterruption) {
    // A spot-interruption process gives AWS's two-minute notice.
    ++nodes_[node].spot_notices;
    tick.kind = StepKind::kRemove;
    Schedule(api,
             api.now() + (origin.process ? kSpotNotice : api.cluster().faults[origin.source].notice),
             tick);
  }
  tick.kind = StepKind::kDrainTick;
  DrainTick(api, tick);
}

// Evicts every pod the budgets let go (each ends Evicted after its grace period); once the
// node is empty a drain's maintenance starts, else the refused evictions are retried in
// 5 s (kubectl drain's retry). A spot notice keeps retrying until its node is removed.
void FaultInjector::DrainTick(ClusterApi& api, const Step& e) {
  const NodeId id(e.node);
  const NodeConditions& conditions = api.node_conditions(id);
  if (conditions.removed || api.node_instance(id) != e.instance) return;
  // A spot notice's node group instance is gone (by the notice or before it): nothing to
  // drain until another instance, with notices of its own, runs in the slot.
  if (conditions.absent && KindOf(api, e) == FaultKind::kSpotInterruption) return;
  api.EvictPods(id, SimTime::Max(), LossBook::kFaults);
  Step next = e;
  if (KindOf(api, e) == FaultKind::kDrain && api.nodes()[e.node].pods.empty()) {
    next.kind = StepKind::kUncordon;  // drains are scripted: the fault's maintenance
    Schedule(api, api.now() + api.cluster().faults[e.source].maintenance, next);
    return;
  }
  Schedule(api, api.now() + kEvictionRetry, next);
}

// The instance is gone and never comes back (a node group's slot may launch another). An
// instance already gone (terminated by the autoscaler during its notice, or by an earlier
// notice) is not deleted twice: its group's count of nodes would go below what runs.
void FaultInjector::RemoveNode(ClusterApi& api, uint32_t node) {
  const NodeConditions& conditions = api.node_conditions(NodeId(node));
  if (conditions.removed || conditions.absent) return;
  api.DeleteNode(NodeId(node));
}

namespace {

// What a failed apply leaves: the MIG-enabled GPUs without GPU instances.
std::vector<GpuMigSetting> Emptied(std::vector<GpuMigSetting> gpus) {
  for (GpuMigSetting& g : gpus) {
    if (g.mig_enabled) g.layout.clear();
  }
  return gpus;
}

}  // namespace

// mig-parted destroys the GPU instances of the MIG GPUs and fails to create the new ones
// (domain.md §4.1, step 9): pods there lose their devices, the plugin stays withdrawn for
// the node's pending window, then comes back with no MIG device and the state `failed`.
void FaultInjector::MigApplyFails(ClusterApi& api, uint32_t node, const Step& origin) {
  const NodeId id(node);
  NodeState& state = nodes_[node];
  const NodeRuntime& runtime = api.node_runtime(id);
  if (!state.mig_failed) {
    state.mig_before = runtime.gpus();
    state.config_before = runtime.mig_config();
  }
  const SimTime window = api.cluster().nodes[node].mig_reconfiguration;
  api.BeginMigChange(id, Emptied(runtime.gpus()), state.config_before, window,
                     LossBook::kFaults);
  Step failed = origin;
  failed.kind = StepKind::kMigFailed;
  failed.node = node;
  Schedule(api, api.now() + window, failed);
}

bool FaultInjector::RestoreMig(ClusterApi& api, const Step& e) {
  const NodeId id(e.node);
  const NodeRuntime& runtime = api.node_runtime(id);
  if (runtime.reconfiguring()) {
    Schedule(api, api.reconfiguring_until(id), e);
    return false;
  }
  NodeState& state = nodes_[e.node];
  // A policy or a relabel may have fixed the node meanwhile: then there is nothing to do.
  if (!state.mig_failed || runtime.mig_state() != "failed") {
    state.mig_failed = false;
    return true;
  }
  const SimTime window = api.cluster().nodes[e.node].mig_reconfiguration;
  api.BeginMigChange(id, state.mig_before, state.config_before, window, LossBook::kFaults);
  Step restored = e;
  restored.kind = StepKind::kMigRestored;
  Schedule(api, api.now() + window, restored);
  return true;
}

void FaultInjector::MigApplyEnds(ClusterApi& api, const Step& e) {
  const NodeId id(e.node);
  NodeState& state = nodes_[e.node];
  if (e.kind == StepKind::kMigFailed) {
    api.FinishMigChange(id, Emptied(api.node_runtime(id).gpus()), state.config_before);
    api.SetMigConfigState(id, "failed");
    state.mig_failed = true;
  } else {
    api.FinishMigChange(id, state.mig_before, state.config_before);
    state.mig_failed = false;
  }
  ReportAvailability(api, e.node);
}

}  // namespace migsim
