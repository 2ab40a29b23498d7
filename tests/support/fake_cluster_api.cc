#include "tests/support/fake_cluster_api.h"

#include <algorithm>
#include <catch2/catch.hpp>

#include "sim/core/text.h"

namespace migsim::test {

FakeClusterApi::FakeClusterApi(const ClusterSpec& cluster, uint64_t seed)
    : cluster_(&cluster), seed_(seed) {
  const size_t n = cluster.nodes.size();
  infos_.resize(n);
  until_.assign(n, SimTime::Zero());
  instances.assign(n, 0);
  changed_at.assign(n, SimTime::Zero());
  conditions_.resize(n);
  runtimes_.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    runtimes_.emplace_back(cluster.nodes[i], NodeId(static_cast<NodeId::Rep>(i)), resources_,
                           infos_[i]);
    conditions_[i].gpu_unhealthy.assign(runtimes_.back().gpus().size(), 0);
  }
}

int FakeClusterApi::RunTimers(ClusterController& controller, SimTime until) {
  int ran = 0;
  while (!timers_.empty()) {
    // The earliest; among equals the first set, as the engine's event queue orders them.
    const auto next = std::min_element(timers_.begin(), timers_.end(),
                                       [](const Timer& a, const Timer& b) { return a.at < b.at; });
    if (next->at > until) break;
    const Timer timer = *next;
    timers_.erase(next);
    now_ = timer.at;
    controller.OnTimer(*this, timer.tag);
    ++ran;
  }
  return ran;
}

int FakeClusterApi::RunInstants(ClusterController& controller, SimTime until) {
  int instants = 0;
  while (!timers_.empty()) {
    const SimTime next = std::min_element(timers_.begin(), timers_.end(), [](const Timer& a,
                                                                             const Timer& b) {
                           return a.at < b.at;
                         })->at;
    if (next > until) break;
    RunTimers(controller, next);
    controller.BeforeCycle(*this);
    controller.AfterCycle(*this);
    ++instants;
  }
  return instants;
}

PodId FakeClusterApi::BindPod(NodeId node, TemplateId tmpl, OwnerId owner) {
  REQUIRE(tmpl.value() < templates.size());
  Pod pod;
  pod.id = PodId(static_cast<PodId::Rep>(pod_list.size()));
  pod.owner = owner;
  pod.tmpl = tmpl;
  pod.phase = PodPhase::kRunning;
  pod.node = node;
  pod.ready = true;
  pod_list.push_back(pod);
  node_info(node).pods.push_back(BoundPod{.id = pod.id, .requests = &templates[tmpl.value()].requests});
  return pod.id;
}

const NodeRuntime& FakeClusterApi::node_runtime(NodeId node) const {
  REQUIRE(node.value() < runtimes_.size());
  return runtimes_[node.value()];
}

const PodTemplate& FakeClusterApi::pod_template(TemplateId tmpl) const {
  REQUIRE(tmpl.value() < templates.size());
  return templates[tmpl.value()];
}

SimTime FakeClusterApi::reconfiguring_until(NodeId node) const { return until_[node.value()]; }

void FakeClusterApi::SetTimer(SimTime at, uint64_t tag, TimerKind kind) {
  REQUIRE(at >= now_);
  timers_.push_back({at, tag, kind});
}

void FakeClusterApi::BeginMigChange(NodeId node, const std::vector<GpuMigSetting>& /*target*/,
                                    const std::string& config, SimTime duration,
                                    LossBook /*book*/) {
  REQUIRE_FALSE(runtimes_[node.value()].reconfiguring());
  calls.push_back("BeginMigChange node " + std::to_string(node.value()) + " " + config + " " +
                  FormatShortest(duration.seconds()) + " s");
  runtimes_[node.value()].Withdraw(config, infos_[node.value()]);
  until_[node.value()] = now_ + duration;
}

void FakeClusterApi::BeginMigRepartition(NodeId node, const std::string& config, SimTime until) {
  REQUIRE_FALSE(runtimes_[node.value()].reconfiguring());
  calls.push_back("BeginMigRepartition node " + std::to_string(node.value()) + " " + config +
                  " until " + FormatShortest(until.seconds()) + " s");
  runtimes_[node.value()].Withdraw(config, infos_[node.value()]);
  until_[node.value()] = until;
}

void FakeClusterApi::FinishMigChange(NodeId node, const std::vector<GpuMigSetting>& gpus,
                                     const std::string& config) {
  calls.push_back("FinishMigChange node " + std::to_string(node.value()) + " " + config);
  runtimes_[node.value()].Apply(gpus, config, resources_, infos_[node.value()]);
}

NodeConditions& FakeClusterApi::conditions(NodeId node) {
  REQUIRE(node.value() < conditions_.size());
  return conditions_[node.value()];
}

NodeInfo& FakeClusterApi::node_info(NodeId node) {
  REQUIRE(node.value() < infos_.size());
  return infos_[node.value()];
}

void FakeClusterApi::ChangeNode(ClusterController& controller, NodeId node, NodeChange change) {
  UpdateSchedulable(node);
  controller.OnNodeChanged(*this, node, change);
}

const NodeConditions& FakeClusterApi::node_conditions(NodeId node) const {
  REQUIRE(node.value() < conditions_.size());
  return conditions_[node.value()];
}

uint32_t FakeClusterApi::node_instance(NodeId node) const {
  REQUIRE(node.value() < instances.size());
  return instances[node.value()];
}

void FakeClusterApi::Record(const std::string& verb, NodeId node, const std::string& rest) {
  calls.push_back(verb + " node " + std::to_string(node.value()) + (rest.empty() ? "" : " ") +
                  rest);
}

void FakeClusterApi::UpdateSchedulable(NodeId node) {
  const NodeConditions& c = conditions_[node.value()];
  infos_[node.value()].schedulable = c.not_ready == 0 && c.cordons == 0 && !c.removed && !c.absent;
}

void FakeClusterApi::SetNodeNotReady(NodeId node, SimTime toleration) {
  REQUIRE_FALSE(conditions(node).removed);
  Record("SetNodeNotReady", node, "toleration " + FormatShortest(toleration.seconds()) + " s");
  ++conditions(node).not_ready;
  UpdateSchedulable(node);
}

void FakeClusterApi::SetNodeReady(NodeId node) {
  REQUIRE(conditions(node).not_ready > 0);
  Record("SetNodeReady", node);
  --conditions(node).not_ready;
  UpdateSchedulable(node);
}

void FakeClusterApi::SetGpuHealth(NodeId node, int gpu, bool healthy) {
  REQUIRE_FALSE(conditions(node).removed);
  int& unhealthy = conditions(node).gpu_unhealthy.at(static_cast<size_t>(gpu));
  Record("SetGpuHealth", node,
         "gpu " + std::to_string(gpu) + (healthy ? " healthy" : " unhealthy"));
  if (healthy) {
    REQUIRE(unhealthy > 0);
    --unhealthy;
  } else {
    ++unhealthy;
  }
}

void FakeClusterApi::Cordon(NodeId node) {
  REQUIRE_FALSE(conditions(node).removed);
  Record("Cordon", node);
  ++conditions(node).cordons;
  UpdateSchedulable(node);
}

void FakeClusterApi::Uncordon(NodeId node) {
  REQUIRE(conditions(node).cordons > 0);
  Record("Uncordon", node);
  --conditions(node).cordons;
  UpdateSchedulable(node);
}

bool FakeClusterApi::EvictPods(NodeId node, SimTime max_grace, LossBook /*book*/) {
  REQUIRE_FALSE(conditions(node).removed);
  Record("EvictPods", node,
         max_grace == SimTime::Max() ? std::string("grace as the pods'")
                                     : "grace " + FormatShortest(max_grace.seconds()) + " s");
  return evictions_refused;
}

void FakeClusterApi::DeleteNode(NodeId node) {
  REQUIRE_FALSE(conditions(node).removed);
  REQUIRE_FALSE(conditions(node).absent);
  Record("DeleteNode", node);
  conditions(node).removed = true;
  UpdateSchedulable(node);
}

void FakeClusterApi::SetMigConfigState(NodeId node, const std::string& state) {
  REQUIRE_FALSE(runtimes_[node.value()].reconfiguring());
  Record("SetMigConfigState", node, state);
  runtimes_[node.value()].SetMigState(state, infos_[node.value()]);
}

void FakeClusterApi::RecordFault(const FaultNotice& notice) {
  Record(std::string("RecordFault ") + std::string(FaultKindName(notice.kind)) +
             (notice.repaired ? " repaired" : " hit"),
         notice.node, notice.gpu >= 0 ? "gpu " + std::to_string(notice.gpu) : "");
}

void FakeClusterApi::RecordPoolAvailability(uint32_t pool, int64_t available, int64_t total) {
  REQUIRE(available <= total);
  calls.push_back("RecordPoolAvailability pool " + std::to_string(pool) + " " +
                  std::to_string(available) + "/" + std::to_string(total));
}

bool FakeClusterApi::RecreatesPods(OwnerId owner) const {
  return std::find(bare_pod_owners.begin(), bare_pod_owners.end(), owner) == bare_pod_owners.end();
}

SimTime FakeClusterApi::node_changed_at(NodeId node) const {
  REQUIRE(node.value() < changed_at.size());
  return changed_at[node.value()];
}

std::vector<PendingPods> FakeClusterApi::PodsThatCannotMove(std::span<const uint32_t> leaving,
                                                            std::span<const uint8_t> held) const {
  return cannot_move ? cannot_move(leaving, held) : std::vector<PendingPods>{};
}

namespace {

const char* ScaleChangeName(NodeScaleChange change) {
  switch (change) {
    case NodeScaleChange::kLaunched:
      return "launched";
    case NodeScaleChange::kReady:
      return "ready";
    case NodeScaleChange::kDrainStarted:
      return "drain-started";
    case NodeScaleChange::kDrainAborted:
      return "drain-aborted";
    case NodeScaleChange::kTerminated:
      return "terminated";
  }
  return "?";
}

const char* NodeChangeName(NodeChange change) {
  switch (change) {
    case NodeChange::kStarted:
      return "started";
    case NodeChange::kReady:
      return "ready";
    case NodeChange::kTerminated:
      return "terminated";
    case NodeChange::kRemoved:
      return "removed";
  }
  return "?";
}

}  // namespace

void FakeClusterApi::SetNodeAbsent(NodeId node) {
  REQUIRE_FALSE(conditions(node).absent);
  Record("SetNodeAbsent", node);
  conditions(node).absent = true;
  UpdateSchedulable(node);
}

void FakeClusterApi::RegisterNode(NodeId node, uint32_t group) {
  REQUIRE(conditions(node).absent);
  Record("RegisterNode", node, "group " + std::to_string(group));
  conditions(node).absent = false;
  UpdateSchedulable(node);
}

void FakeClusterApi::TerminateInstance(NodeId node, uint32_t group) {
  REQUIRE_FALSE(conditions(node).absent);
  REQUIRE_FALSE(conditions(node).removed);
  Record("TerminateInstance", node, "group " + std::to_string(group));
  conditions(node).absent = true;
  infos_[node.value()].pods.clear();
  UpdateSchedulable(node);
}

void FakeClusterApi::ReportNodeScaled(NodeId node, uint32_t group, NodeScaleChange change) {
  Record("ReportNodeScaled", node,
         "group " + std::to_string(group) + " " + ScaleChangeName(change));
}

void FakeClusterApi::AnnounceNodeChange(NodeId node, NodeChange change) {
  REQUIRE(change != NodeChange::kRemoved);
  Record("AnnounceNodeChange", node, NodeChangeName(change));
}

void FakeClusterApi::TellAdmitted(OwnerId owner, WorkloadId workload,
                                  std::span<const TemplateId> tmpls) {
  std::string line = "TellAdmitted owner " + std::to_string(owner.value()) + " workload " +
                     std::to_string(workload.value()) + " templates";
  for (TemplateId t : tmpls) line += " " + std::to_string(t.value());
  calls.push_back(line);
}

void FakeClusterApi::TellEvicted(OwnerId owner, WorkloadId workload) {
  calls.push_back("TellEvicted owner " + std::to_string(owner.value()) + " workload " +
                  std::to_string(workload.value()));
}

GpuPodKind::GpuPodKind(FakeClusterApi& api, int32_t gpus) {
  requests.extended.push_back({api.Intern("nvidia.com/gpu"), gpus});
}

PendingPods GpuPodKind::Pending(uint32_t count) const {
  PodView view;
  view.requests = &requests;
  return {.view = view, .count = count};
}

}  // namespace migsim::test
