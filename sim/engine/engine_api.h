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
  std::span<const Pod> pods() const override { return e_.pods_; }
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
  uint32_t CheckedOwner(OwnerId owner) const {
    MIGSIM_CHECK(owner.valid() && owner.value() < e_.controllers_.size(), "no such controller");
    return owner.value();
  }

  Engine& e_;
  uint32_t index_;
};

}  // namespace migsim
