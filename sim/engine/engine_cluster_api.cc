// The engine's side of the cluster-controller seam: each controller's ClusterApi, its
// timers, and the calls the engine makes to the controllers at each point of a run.

#include <algorithm>

#include "sim/core/check.h"
#include "sim/engine/engine_api.h"

namespace migsim {

Engine::~Engine() = default;

void Engine::StartClusterControllers() {
  for (uint32_t i = 0; i < cluster_controllers_.size(); ++i) {
    apis_.push_back(std::make_unique<Api>(*this, i));
  }
  CallClusterControllers(&ClusterController::Start);
}

void Engine::Handle(const ClusterTimer& e) {
  if (e.idle) --apis_[e.controller]->idle_timers, --idle_timers_;
  cluster_controllers_[e.controller]->OnTimer(*apis_[e.controller], e.tag);
}

void Engine::CallClusterControllers(void (ClusterController::*call)(ClusterApi&)) {
  for (uint32_t i = 0; i < cluster_controllers_.size(); ++i) {
    (cluster_controllers_[i].get()->*call)(*apis_[i]);
  }
}

void Engine::NotifyNodeChanged(uint32_t node, NodeChange change) {
  for (uint32_t i = 0; i < cluster_controllers_.size(); ++i) {
    cluster_controllers_[i]->OnNodeChanged(*apis_[i], NodeId(node), change);
  }
}

bool Engine::IdleControllerMayAct() const {
  for (uint32_t i = 0; i < cluster_controllers_.size(); ++i) {
    if (apis_[i]->idle_timers > 0 && cluster_controllers_[i]->MayAct(*apis_[i])) return true;
  }
  return false;
}

bool Engine::OnlyFlushesLeft() {
  return events_.size() == pending_flushes_ + idle_timers_ && !IdleControllerMayAct();
}

template <class Role>
std::pair<Role*, ClusterApi*> Engine::RoleOf(Role* (ClusterController::*role)()) {
  for (uint32_t i = 0; i < cluster_controllers_.size(); ++i) {
    if (Role* r = (cluster_controllers_[i].get()->*role)()) return {r, apis_[i].get()};
  }
  return {nullptr, nullptr};
}

template std::pair<MigLayoutRequests*, ClusterApi*> Engine::RoleOf(
    MigLayoutRequests* (ClusterController::*)());
template std::pair<WorkloadAdmission*, ClusterApi*> Engine::RoleOf(
    WorkloadAdmission* (ClusterController::*)());
template std::pair<NodeProvider*, ClusterApi*> Engine::RoleOf(
    NodeProvider* (ClusterController::*)());

// Workload controllers' admission requests go to the controller that takes the Kueue role.
WorkloadId Engine::RequestAdmission(OwnerId owner, int32_t local_queue,
                                    std::span<const PodSet> pod_sets) {
  const auto [kueue, api] = RoleOf(&ClusterController::admission);
  MIGSIM_CHECK(kueue != nullptr, "an admission request without Kueue");
  return kueue->RequestAdmission(*api, owner, local_queue, pod_sets);
}

void Engine::FinishWorkload(WorkloadId workload) {
  const auto [kueue, api] = RoleOf(&ClusterController::admission);
  MIGSIM_CHECK(kueue != nullptr, "a workload finished without Kueue");
  kueue->FinishWorkload(*api, workload);
}

}  // namespace migsim
