#include "sim/controllers/mig_manager/mig_manager.h"

#include <algorithm>
#include <string>

namespace migsim {
namespace {

// A timer's tag: what it is for in the top byte, which relabel or request below.
enum class Step : uint64_t { kRelabelBegin = 1, kRelabelEnd = 2, kRequestEnd = 3 };

uint64_t Tag(Step step, uint64_t index) { return static_cast<uint64_t>(step) << 56 | index; }
Step StepOf(uint64_t tag) { return static_cast<Step>(tag >> 56); }
uint32_t IndexOf(uint64_t tag) { return static_cast<uint32_t>(tag & 0xffffffffULL); }

}  // namespace

void MigManager::Start(ClusterApi& api) {
  const std::vector<Reconfiguration>& relabels = api.cluster().reconfigurations;
  for (uint32_t i = 0; i < relabels.size(); ++i) {
    api.SetTimer(relabels[i].at, Tag(Step::kRelabelBegin, i));
  }
}

void MigManager::OnTimer(ClusterApi& api, uint64_t tag) {
  const uint32_t index = IndexOf(tag);
  switch (StepOf(tag)) {
    case Step::kRelabelBegin:
      return BeginRelabel(api, index);
    case Step::kRelabelEnd: {
      const Reconfiguration& r = api.cluster().reconfigurations[index];
      return api.FinishMigChange(NodeId(r.node), r.gpus, r.mig_config);
    }
    case Step::kRequestEnd: {
      auto [node, target] = std::move(requested_[index]);
      return api.FinishMigChange(node, target, std::string(kCustomConfig));
    }
  }
}

void MigManager::BeginRelabel(ClusterApi& api, uint32_t index) {
  const Reconfiguration& r = api.cluster().reconfigurations[index];
  const NodeId node(r.node);
  const NodeRuntime& runtime = api.node_runtime(node);
  if (runtime.reconfiguring()) {
    // Another change of this node is under way (a policy's, or a relabel held back by one):
    // go after it. A relabel that ends at this same instant (the loader rejects overlapping
    // windows) but whose end timer was set later is waited for the same way.
    api.SetTimer(std::max(api.now(), api.reconfiguring_until(node)),
                 Tag(Step::kRelabelBegin, index));
    return;
  }
  if (runtime.ChangingGpus(r.gpus).empty()) {
    // The config is already in place: the MIG manager reports success at once.
    api.SetTimer(api.now(), Tag(Step::kRelabelEnd, index));
    return;
  }
  api.BeginMigChange(node, r.gpus, r.mig_config, r.duration, LossBook::kUnbooked);
  api.SetTimer(api.now() + r.duration, Tag(Step::kRelabelEnd, index));
}

void MigManager::RequestLayout(ClusterApi& api, NodeId node, std::vector<GpuMigSetting> target) {
  const SimTime until = api.now() + api.cluster().nodes[node.value()].mig_reconfiguration;
  api.BeginMigRepartition(node, std::string(kCustomConfig), until);
  const uint64_t index = requested_.size();
  requested_.emplace_back(node, std::move(target));
  api.SetTimer(until, Tag(Step::kRequestEnd, index));
}

}  // namespace migsim
