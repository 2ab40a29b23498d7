#pragma once
// Any of the six GPU-sharing policies as a scheduling Policy, for scenarios whose nodes
// offer fractional GPU shares (device_plugin.fractional): the node's CPU and share GPUs
// become a GpuShareNode, the pod's share request a PodShape, and the policy's GPU choice
// goes to the engine as device choices (the node's fractional devices it takes).
//
// What a scenario does not carry is approximated: FGD's typical pods are the pods this
// policy has been asked to place so far (recomputed as their number doubles); ties go to
// the lowest node id; GpuClustering sees no affinity tags (NodeInfo does not record which
// pods a node holds), so it scores by GPU use alone.
//
// GPU models: the key of the first node-affinity term the policy meets is taken as the
// GPU-model label (a Trace workload turns openb's gpu_spec into such a term on
// alibabacloud.com/gpu-card-model). A node's model is its value of that label; a pod's
// model constraint the term's values. FGD then counts a typical pod that the constraint
// keeps off a node as unable to use the node's idle GPUs, as the study does. Affinity
// terms on other keys still filter nodes but do not enter the fragmentation measure.
//
// Scores are cached per node and pod shape: a node's entry is reused until its free CPU,
// free shares or model change (the fill experiment's cache, keyed by what the view shows
// rather than by a version the engine would have to keep).

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/rng.h"
#include "sim/policy/gpu_fragmentation.h"
#include "sim/policy/gpu_share_scorer.h"
#include "sim/policy/policy.h"

namespace migsim {

class GpuShareAdapter final : public Policy {
 public:
  // REQUIRES: `name` is a GpuShareScorerNames() entry.
  // `seed` seeds the random stream (the random policy's node choice).
  explicit GpuShareAdapter(const std::string& name, uint64_t seed = 1);
  std::string_view name() const override { return name_; }
  std::optional<Placement> Place(const ClusterView& view, const PodView& pod) override;
  // For composition (ScoredPolicy): the study's score in [0, 100]; none for random.
  std::optional<double> Score(const ClusterView& view, const PodView& pod,
                              const NodeInfo& node) override;
  std::vector<DeviceChoice> ChooseDevices(const ClusterView& view, const PodView& pod,
                                          const NodeInfo& node) override;

 private:
  // A node as the policy last saw it; `version` changes whenever `node` does.
  struct SeenNode {
    GpuShareNode node;
    uint32_t version = 0;  // 0: never seen
  };
  struct CachedScore {
    uint32_t version = 0;  // the node's version the score was computed for; 0: none
    int64_t score = 0;
  };

  PodShape ShapeOf(const ClusterView& view, const PodView& pod);
  // The pod's shape, learned once per pod (the last pod's shape is kept).
  const PodShape& Prepare(const ClusterView& view, const PodView& pod);
  const SeenNode& Refresh(const NodeInfo& node);
  int64_t Score(const SeenNode& seen, NodeId node, uint32_t shape);
  uint32_t ShapeId(const PodShape& shape);
  void Learn(PodId pod, const PodShape& shape);

  std::string name_;
  Rng rng_;
  PodId prepared_;  // the pod whose shape prepared_shape_ is
  PodShape prepared_shape_;
  std::vector<PodShape> seen_;
  std::vector<bool> learned_;  // by PodId: the pod's shape is in seen_
  std::vector<TypicalPod> typical_;
  size_t typical_from_ = 0;  // seen_.size() when typical_ was last computed
  std::unique_ptr<GpuShareScorer> policy_;
  std::string model_key_;  // empty until a pod with node affinity is placed

  std::vector<SeenNode> nodes_;  // by NodeId
  std::map<PodShape, uint32_t> shape_ids_;
  std::vector<PodShape> shapes_;                   // by shape id
  std::vector<std::vector<CachedScore>> scores_;   // [shape id][NodeId]
};

}  // namespace migsim
