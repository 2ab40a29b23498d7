#pragma once
// Engine::Api, one cluster controller's ClusterApi (engine_cluster_api.cc): for the
// engine's own files only (the Engine's members need it complete).

#include <algorithm>

#include "sim/core/check.h"
#include "sim/engine/engine.h"

namespace migsim {

// One controller's view: reads go to the engine, verbs are checked there, timers come back
// to this controller.
class Engine::Api final : public ClusterApi {
 public:
  Api(Engine& engine, uint32_t index) : e_(engine), index_(index) {}
  size_t idle_timers = 0;  // its ClusterTimers queued with `idle`

  SimTime now() const override { return e_.now_; }
  uint64_t seed() const override { return e_.config_.seed; }
  const ClusterSpec& cluster() const override { return *e_.cluster_; }
  const Pod& pod(PodId id) const override { return e_.pods_[id.value()]; }
  std::span<const NodeInfo> nodes() const override { return e_.node_info_; }
  const NodeRuntime& node_runtime(NodeId node) const override {
    return e_.runtimes_[Checked(node)];
  }
  const PodTemplate& pod_template(TemplateId tmpl) const override {
    MIGSIM_CHECK(tmpl.valid() && tmpl.value() < e_.templates_.size(), "no such template");
    return e_.templates_[tmpl.value()];
  }
  const ResourceTable& resources() const override { return e_.resources_; }
  SimTime reconfiguring_until(NodeId node) const override {
    return e_.reconfiguring_until_[Checked(node)];
  }
  const NodeConditions& node_conditions(NodeId node) const override {
    return e_.node_conditions_[Checked(node)];
  }
  uint32_t node_instance(NodeId node) const override;
  SimTime horizon() const override { return e_.config_.horizon; }
  std::span<const dra::DeviceClass> device_classes() const override { return e_.device_classes_; }
  bool RecreatesPods(OwnerId owner) const override {
    return e_.controllers_[CheckedOwner(owner)]->RecreatesPods();
  }
  const DisruptionBudgets& disruption_budgets() const override { return e_.budgets_; }
  SimTime node_changed_at(NodeId node) const override { return e_.node_changed_at_[Checked(node)]; }
  std::vector<PendingPods> UnschedulablePods() const override { return e_.UnschedulablePods(); }
  std::vector<PendingPods> PodsThatCannotMove(std::span<const uint32_t> leaving,
                                              std::span<const uint8_t> held) const override {
    for (uint32_t node : leaving) Checked(NodeId(node));
    MIGSIM_CHECK(held.empty() || held.size() == e_.node_info_.size(), "held is not by node");
    return e_.PodsThatCannotMove(leaving, held);
  }
  std::vector<uint8_t> NodesWaitingGangsNeed() const override { return e_.NodesWaitingGangsNeed(); }

  void SetTimer(SimTime at, uint64_t tag, TimerKind kind) override {
    MIGSIM_CHECK(at >= e_.now_, "a cluster controller's timer in the past");
    const bool idle = kind == TimerKind::kIdle || (kind == TimerKind::kIdleWithoutHorizon &&
                                                   e_.config_.horizon == SimTime::Max());
    e_.events_.Push(at, ClusterTimer{index_, idle, tag});
    if (idle) ++idle_timers, ++e_.idle_timers_;
  }
  void BeginMigChange(NodeId node, const std::vector<GpuMigSetting>& target,
                      const std::string& config, SimTime duration, LossBook book) override {
    const uint32_t n = Checked(node);
    MIGSIM_CHECK(!e_.runtimes_[n].reconfiguring() && target.size() == e_.runtimes_[n].gpus().size(),
                 "a MIG change of a node being reconfigured, or of other GPUs than its own");
    e_.BeginMigChange(n, target, config, duration, book);
  }
  void BeginMigRepartition(NodeId node, const std::string& config, SimTime until) override {
    e_.BeginMigRepartition(Checked(node), config, until);
  }
  void FinishMigChange(NodeId node, const std::vector<GpuMigSetting>& gpus,
                       const std::string& config) override {
    const uint32_t n = Checked(node);
    MIGSIM_CHECK(gpus.size() == e_.runtimes_[n].gpus().size(), "a MIG layout for other GPUs");
    e_.FinishMigChange(n, gpus, config);
  }
  void SetNodeNotReady(NodeId node, SimTime toleration) override {
    e_.SetNodeNotReady(Present(node), toleration);
  }
  void SetNodeReady(NodeId node) override {
    const uint32_t n = Present(node);
    MIGSIM_CHECK(e_.node_conditions_[n].not_ready > 0, "a node made Ready that was not NotReady");
    e_.SetNodeReady(n);
  }
  void SetGpuHealth(NodeId node, int gpu, bool healthy) override {
    const uint32_t n = Present(node);
    const std::vector<int>& unhealthy = e_.node_conditions_[n].gpu_unhealthy;
    MIGSIM_CHECK(gpu >= 0 && static_cast<size_t>(gpu) < unhealthy.size(), "no such GPU");
    MIGSIM_CHECK(!healthy || unhealthy[gpu] > 0, "a GPU made healthy that was not unhealthy");
    e_.SetGpuHealth(n, gpu, healthy);
  }
  void Cordon(NodeId node) override { e_.Cordon(Present(node)); }
  void Uncordon(NodeId node) override {
    const uint32_t n = Checked(node);
    MIGSIM_CHECK(e_.node_conditions_[n].cordons > 0, "a node uncordoned that was not cordoned");
    e_.Uncordon(n);
  }
  bool EvictPods(NodeId node, SimTime max_grace, LossBook book) override {
    return e_.EvictAllowed(Present(node), max_grace, book);
  }
  void DeleteNode(NodeId node) override {
    const uint32_t n = Present(node);
    MIGSIM_CHECK(!e_.node_conditions_[n].absent, "a node deleted that is not running");
    e_.DeleteNode(n);
  }
  void SetMigConfigState(NodeId node, const std::string& state) override {
    const uint32_t n = Checked(node);
    MIGSIM_CHECK(!e_.runtimes_[n].reconfiguring(), "a MIG state set during a MIG change");
    e_.runtimes_[n].SetMigState(state, e_.node_info_[n]);
  }
  void RecordFault(const FaultNotice& notice) override {
    Checked(notice.node);
    e_.RecordFault(notice);
  }
  void RecordPoolAvailability(uint32_t pool, int64_t available, int64_t total) override {
    MIGSIM_CHECK(available >= 0 && available <= total, "more GPUs available than there are");
    e_.RecordPoolAvailability(pool, available, total);
  }
  void RecordKueueWorkload(const KueueWorkloadNotice& notice) override {
    e_.RecordKueueWorkload(notice);
  }
  // The node groups' verbs (engine_node_conditions.cc).
  void SetNodeAbsent(NodeId node) override;
  void RegisterNode(NodeId node, uint32_t group) override;
  void TerminateInstance(NodeId node, uint32_t group) override;
  void ReportNodeScaled(NodeId node, uint32_t group, NodeScaleChange change) override;
  void AnnounceNodeChange(NodeId node, NodeChange change) override {
    MIGSIM_CHECK(change != NodeChange::kRemoved, "a removal announced by a controller");
    e_.NotifyNodeChanged(Checked(node), change);
  }
  void TellAdmitted(OwnerId owner, WorkloadId workload,
                    std::span<const TemplateId> templates) override {
    e_.controllers_[CheckedOwner(owner)]->OnAdmitted(e_, workload, templates);
  }
  void TellEvicted(OwnerId owner, WorkloadId workload) override {
    e_.controllers_[CheckedOwner(owner)]->OnEvicted(e_, workload);
  }

 private:
  uint32_t Checked(NodeId node) const {
    MIGSIM_CHECK(node.valid() && node.value() < e_.runtimes_.size(), "no such node");
    return node.value();
  }
  // A node that is not removed (the node verbs' REQUIRES).
  uint32_t Present(NodeId node) const {
    const uint32_t n = Checked(node);
    MIGSIM_CHECK(!e_.node_conditions_[n].removed, "a verb on a removed node");
    return n;
  }
  uint32_t CheckedOwner(OwnerId owner) const {
    MIGSIM_CHECK(owner.valid() && owner.value() < e_.controllers_.size(), "no such controller");
    return owner.value();
  }

  Engine& e_;
  uint32_t index_;
};

}  // namespace migsim
