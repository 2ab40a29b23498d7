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
  runtimes_.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    runtimes_.emplace_back(cluster.nodes[i], NodeId(static_cast<NodeId::Rep>(i)), resources_,
                           infos_[i]);
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

}  // namespace migsim::test
