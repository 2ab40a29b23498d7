#pragma once
// Any of the six GPU-sharing policies as a scheduling Policy, for scenarios whose nodes
// offer fractional GPU shares (device_plugin.fractional): the node's CPU and share GPUs
// become a GpuShareNode, the pod's share request a PodShape, and the policy's GPU choice
// goes to the engine as Placement::shares.
//
// What a scenario does not carry is approximated: FGD's typical pods are the pods this
// policy has been asked to place so far (recomputed as their number doubles); ties go to
// the lowest node id; GpuClustering sees no affinity tags (NodeInfo does not record which
// pods a node holds), so it scores by GPU use alone.

#include <memory>
#include <string>
#include <vector>

#include "sim/core/rng.h"
#include "sim/policy/gpu_fragmentation.h"
#include "sim/policy/gpu_share_policy.h"
#include "sim/policy/policy.h"

namespace migsim {

class GpuShareAdapter final : public Policy {
 public:
  // REQUIRES: `name` is a GpuSharePolicyNames() entry.
  explicit GpuShareAdapter(const std::string& name);
  std::string_view name() const override { return name_; }
  std::optional<Placement> Place(const ClusterView& view, const PodView& pod) override;

 private:
  PodShape ShapeOf(const ClusterView& view, const PodView& pod) const;
  GpuShareNode NodeOf(const NodeInfo& node) const;
  void Learn(const PodShape& shape);

  std::string name_;
  Rng rng_{1};
  std::vector<PodShape> seen_;
  std::vector<TypicalPod> typical_;
  size_t typical_from_ = 0;  // seen_.size() when typical_ was last computed
  std::unique_ptr<GpuSharePolicy> policy_;
};

}  // namespace migsim
