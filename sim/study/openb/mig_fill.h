#pragma once
// The MIG edition of the fill experiment: the same openb pods, in the same order and with
// the same top-up as the milli-GPU experiment for the seed, on p4d.24xlarge nodes whose
// A100s are partitioned with MIG. Each GPU request becomes the smallest A100-40GB MIG
// profile that covers its share of compute and memory (ProfileForShare); a whole-GPU pod
// takes a 7g.40gb per GPU. A variant is either a static layout (a mig-parted config on
// every GPU: pods take free GIs of their profile) or dynamic partitioning (GPUs start
// empty and each pod creates its GI where the policy chooses; reconfiguration is taken as
// instant, the fill has no time).

#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/status.h"
#include "sim/policy/mig_scorer.h"
#include "sim/study/openb/fill_experiment.h"

namespace migsim {

struct MigFillConfig {
  std::string policy = "mig-best-fit";  // a MigScorerNames() entry
  std::string layout;                   // a static mig-parted config, or "" for dynamic
  uint64_t seed = 42;
  double tune_ratio = 1.3;
  int64_t capacity_gpus = 6212;         // the openb cluster's, for the top-up target
};

struct MigFillEvent {
  int64_t arrived_milli = 0;  // as in the milli-GPU experiment
  int64_t placed_milli = 0;   // the milli-GPU requested by pods that were placed
  int64_t used_slices = 0;    // compute slices of occupied GIs
  double frag_slices = 0;     // MIG fragmentation (MigFragmentation), summed over GPUs
};

struct MigFillResult {
  int64_t gpus = 0;          // of the MIG cluster
  int64_t capacity_gpus = 0; // MigFillConfig::capacity_gpus: the x-axis's 100 %
  int64_t pods_submitted = 0, pods_failed = 0;
  std::vector<MigFillEvent> events;
};

// `nodes` is the MIG cluster (p4d nodes); `pods` the trace. InvalidArgument for an unknown
// policy or layout.
Result<MigFillResult> RunMigFill(const std::vector<FillNode>& nodes,
                                 const std::vector<FillPod>& pods, const MigFillConfig& config,
                                 const MigScorerFactory& make_policy);

// The cluster the MIG edition uses: enough p4d.24xlarge nodes for `gpus` GPUs.
std::vector<FillNode> P4dCluster(int64_t gpus);

}  // namespace migsim
