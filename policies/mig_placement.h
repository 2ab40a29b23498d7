#pragma once
// mig-first-fit, mig-best-fit and mig-fgd as scheduling policies for scenarios: the MIG
// edition's scorers (mig_scorers.h) choosing which GPU instance a pod takes.
//
// Static layouts: a pod asking for nvidia.com/mig-<profile> takes free GPU instances of
// that profile; each one is scored as the fill study scores it (the GPU before and after
// it is occupied), greedily for a pod asking for several; a node's score is the mean of
// its picks' scores on a 0-100 scale (mig-best-fit: the share of maximal layouts kept, in
// per cent — always 100 on a static layout, so there it packs — plus used slices / 100;
// mig-fgd: 50 + 50 × fragmentation removed / the model's compute slices, plus used slices
// / 100; mig-first-fit: 0). Ties go to the lowest node id, then device index.
//
// Dynamic partitioning (param "dynamic": true): when a MIG pod fits nowhere, the
// post-filter asks the MIG manager for new GPU instances on MIG-enabled GPUs (an
// "all-enabled" GPU starts empty): for the pod and the pods alike waiting behind it (at
// most 64 at once), the best new placement the rules allow next to the existing instances
// (on a GPU where none fits, its idle instances are destroyed to make room), scored the
// same way, one at a time. Nodes reconfiguring are skipped; the node is
// withdrawn for its reconfiguration window meanwhile. Needs the mixed strategy (the
// resource names the profile).
//
// mig-fgd's typical profiles are those of the MIG pods this policy has been offered so far
// (recomputed as their number doubles), as the GPU-sharing adapter learns typical pods.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/policy/mig_scorer.h"
#include "sim/policy/policy.h"

namespace migsim {

class MigPlacementPolicy final : public Policy {
 public:
  // REQUIRES: `name` is a MigScorerNames() entry.
  MigPlacementPolicy(std::string name, bool dynamic);
  std::string_view name() const override { return name_; }
  std::optional<Placement> Place(const ClusterView& view, const PodView& pod) override;
  std::optional<double> Score(const ClusterView& view, const PodView& pod,
                              const NodeInfo& node) override;
  std::vector<DeviceChoice> ChooseDevices(const ClusterView& view, const PodView& pod,
                                          const NodeInfo& node) override;
  std::vector<MigReconfiguration> PostFilter(const ClusterView& view, const PodView& pod) override;

 private:
  // The scorer for one GPU model, with its context (layouts, typical profiles).
  struct Scorer {
    MigPolicyContext context;
    std::unique_ptr<MigScorer> policy;
    size_t typical_from = 0;  // seen_.size() when the typical profiles were computed
  };
  struct Pick {
    std::vector<DeviceChoice> devices;
    double score = 0;
  };

  Scorer& ScorerFor(const GpuModel& model);
  double Normalized(const Scorer& s, const MigGpu& before, const MigGpu& after);
  std::optional<Pick> Best(const ClusterView& view, const PodView& pod, const NodeInfo& node);
  void Learn(const ClusterView& view, const PodView& pod);

  std::string name_;
  bool dynamic_;
  std::map<const GpuModel*, Scorer> scorers_;
  std::vector<std::string> seen_;  // the MIG resource name of every MIG pod offered
  std::vector<bool> learned_;      // by PodId
};

}  // namespace migsim
