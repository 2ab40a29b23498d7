#pragma once
// A ClusterApi without an engine, for testing a cluster controller alone (the way a fake
// command runner tests a build planner): real nodes (NodeRuntime, built from the cluster
// spec), pods and templates the test sets, a clock the test moves, and a record of every
// verb the controller used, in order.

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/engine/cluster_api.h"
#include "sim/engine/cluster_controller.h"

namespace migsim::test {

class FakeClusterApi final : public ClusterApi {
 public:
  // REQUIRES: `cluster` outlives the fake.
  explicit FakeClusterApi(const ClusterSpec& cluster, uint64_t seed = 1);
  FakeClusterApi(const FakeClusterApi&) = delete;
  FakeClusterApi& operator=(const FakeClusterApi&) = delete;

  struct Timer {
    SimTime at;
    uint64_t tag;
    TimerKind kind;
  };
  // Every verb the controller used, as one line each ("BeginMigChange node 0 all-1g.5gb
  // 600 s"), in call order.
  std::vector<std::string> calls;
  std::vector<Pod> pod_list;
  std::vector<PodTemplate> templates;
  // By node: node_instance() (0 unless the test launches another instance).
  std::vector<uint32_t> instances;
  // What EvictPods answers: true, a budget refused some pod.
  bool evictions_refused = false;
  // What the reads of the same names answer (the test sets them): horizon(),
  // device_classes(), disruption_budgets(), node_changed_at() by node, UnschedulablePods(),
  // NodesWaitingGangsNeed(); RecreatesPods() is false for the owners in bare_pod_owners.
  SimTime run_horizon = SimTime::Max();
  std::vector<dra::DeviceClass> classes;
  DisruptionBudgets budgets;
  std::vector<SimTime> changed_at;
  std::vector<PendingPods> unschedulable;
  std::vector<uint8_t> gangs_need;
  std::vector<OwnerId> bare_pod_owners;
  // PodsThatCannotMove's answer; unset: every pod moves.
  std::function<std::vector<PendingPods>(std::span<const uint32_t>, std::span<const uint8_t>)>
      cannot_move;

  // Runs `controller`'s timers in (time, order set) order, moving the clock, until none is
  // left or the next is after `until`; returns how many ran.
  int RunTimers(ClusterController& controller, SimTime until = SimTime::Max());
  // The engine's loop, for a controller that acts after the scheduling cycle (an
  // autoscaler): its timers instant by instant, each instant's followed by BeforeCycle and
  // AfterCycle, until none is left or the next is after `until`; returns the instants run.
  int RunInstants(ClusterController& controller, SimTime until);
  const std::deque<Timer>& timers() const { return timers_; }
  // A running pod of template `tmpl` (ready, counted by its budgets) of `owner`, bound to
  // `node`: appended to pod_list and to the node's NodeInfo::pods. REQUIRES: `tmpl` is in
  // `templates`, which must not grow afterwards (the node points at its requests).
  PodId BindPod(NodeId node, TemplateId tmpl, OwnerId owner = OwnerId(0));
  // The id of resource `name` in the fake's table, interned if new: for the requests of
  // the templates a test builds.
  ResourceId Intern(std::string_view name) { return resources_.Intern(name); }
  void set_now(SimTime now) { now_ = now; }
  // The node's conditions, as the verbs left them (the test may set them too: `absent`...).
  // The schedulable flag follows them as the engine's does.
  NodeConditions& conditions(NodeId node);
  // The node's scheduler view, for the test to bind pods (NodeInfo::pods) to.
  NodeInfo& node_info(NodeId node);
  // Tells `controller` of a node change at now() (as the node groups' controller announces it).
  void ChangeNode(ClusterController& controller, NodeId node, NodeChange change);

  SimTime now() const override { return now_; }
  uint64_t seed() const override { return seed_; }
  const ClusterSpec& cluster() const override { return *cluster_; }
  const Pod& pod(PodId id) const override { return pod_list[id.value()]; }
  std::span<const NodeInfo> nodes() const override { return infos_; }
  const NodeRuntime& node_runtime(NodeId node) const override;
  const PodTemplate& pod_template(TemplateId tmpl) const override;
  const ResourceTable& resources() const override { return resources_; }
  SimTime reconfiguring_until(NodeId node) const override;
  const NodeConditions& node_conditions(NodeId node) const override;
  uint32_t node_instance(NodeId node) const override;
  SimTime horizon() const override { return run_horizon; }
  std::span<const dra::DeviceClass> device_classes() const override { return classes; }
  bool RecreatesPods(OwnerId owner) const override;
  const DisruptionBudgets& disruption_budgets() const override { return budgets; }
  SimTime node_changed_at(NodeId node) const override;
  std::vector<PendingPods> UnschedulablePods() const override { return unschedulable; }
  std::vector<PendingPods> PodsThatCannotMove(std::span<const uint32_t> leaving,
                                              std::span<const uint8_t> held) const override;
  std::vector<uint8_t> NodesWaitingGangsNeed() const override { return gangs_need; }
  void SetTimer(SimTime at, uint64_t tag, TimerKind kind) override;
  void BeginMigChange(NodeId node, const std::vector<GpuMigSetting>& target,
                      const std::string& config, SimTime duration, LossBook book) override;
  void BeginMigRepartition(NodeId node, const std::string& config, SimTime until) override;
  void FinishMigChange(NodeId node, const std::vector<GpuMigSetting>& gpus,
                       const std::string& config) override;
  void SetNodeNotReady(NodeId node, SimTime toleration) override;
  void SetNodeReady(NodeId node) override;
  void SetGpuHealth(NodeId node, int gpu, bool healthy) override;
  void Cordon(NodeId node) override;
  void Uncordon(NodeId node) override;
  bool EvictPods(NodeId node, SimTime max_grace, LossBook book) override;
  void DeleteNode(NodeId node) override;
  void SetMigConfigState(NodeId node, const std::string& state) override;
  void RecordFault(const FaultNotice& notice) override;
  void RecordPoolAvailability(uint32_t pool, int64_t available, int64_t total) override;
  // Kept apart from `calls` (Kueue's tests read its decisions, not its reports).
  void RecordKueueWorkload(const KueueWorkloadNotice& notice) override {
    kueue_notices.push_back(notice);
  }
  std::vector<KueueWorkloadNotice> kueue_notices;
  // The node groups' verbs keep `absent` and the node's pods as the engine's do; the
  // announcements are only recorded (ChangeNode tells a controller).
  void SetNodeAbsent(NodeId node) override;
  void RegisterNode(NodeId node, uint32_t group) override;
  void TerminateInstance(NodeId node, uint32_t group) override;
  void ReportNodeScaled(NodeId node, uint32_t group, NodeScaleChange change) override;
  void AnnounceNodeChange(NodeId node, NodeChange change) override;
  void TellAdmitted(OwnerId owner, WorkloadId workload,
                    std::span<const TemplateId> templates) override;
  void TellEvicted(OwnerId owner, WorkloadId workload) override;

 private:
  const ClusterSpec* cluster_;
  uint64_t seed_;
  SimTime now_ = SimTime::Zero();
  ResourceTable resources_;
  std::vector<NodeInfo> infos_;  // sized once: the runtimes point into it
  std::vector<NodeRuntime> runtimes_;
  std::vector<SimTime> until_;
  std::vector<NodeConditions> conditions_;
  std::deque<Timer> timers_;
  void Record(const std::string& verb, NodeId node, const std::string& rest = "");
  void UpdateSchedulable(NodeId node);
};

// Pods alike that each ask for `gpus` whole GPUs (nvidia.com/gpu), pending as the
// UnschedulablePods and PodsThatCannotMove a test sets answer them; it keeps the requests
// their views point at. Build it before the controller's Start (the resource is interned
// by then: every node of the fake's cluster advertises it).
struct GpuPodKind {
  PodRequests requests;
  GpuPodKind(FakeClusterApi& api, int32_t gpus);
  PendingPods Pending(uint32_t count) const;
};

}  // namespace migsim::test
