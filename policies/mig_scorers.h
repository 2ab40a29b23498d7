#pragma once
// Policies for the MIG edition of the packing benchmark: they score placing a GI on a GPU
// (higher wins; ties go to the node with the lowest rank, then the lowest GPU and start).
//   mig-first-fit   every candidate scores the same: the first that fits.
//   mig-best-fit    keeps the most of the GPU's future layouts open (the maximal classic
//                   layouts still containing all its GIs, as a share of those before),
//                   then packs: more used slices after the placement win.
//   mig-fgd         fragmentation gradient: the smallest increase of the GPU's MIG
//                   fragmentation over the workload's typical profiles.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/policy/mig_scorer.h"

namespace migsim {

// nullptr for an unknown name. `context` must outlive the policy.
std::unique_ptr<MigScorer> MakeMigScorer(std::string_view name,
                                                   const MigPolicyContext& context);
std::vector<std::string> MigScorerNames();

}  // namespace migsim
