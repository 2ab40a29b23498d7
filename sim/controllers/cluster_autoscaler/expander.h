#pragma once
// The Cluster Autoscaler's expanders (README "Autoscaling"): which of the node groups
// that could host pending pods a scale-up grows.

#include <cstddef>
#include <span>

#include "sim/core/rng.h"
#include "sim/engine/node_group_spec.h"
#include "sim/controllers/node_groups/scale_up_estimate.h"

namespace migsim {

// The option `expander` picks among `options` (each placing at least one pod); a tie is
// broken at random, as the autoscaler's expanders fall back to `random`.
//   random      any option
//   most-pods   the one that places the most pods
//   least-waste the one that leaves the least CPU, memory and GPU unused (ScaleUpOption::waste)
//   price       the cheapest per pod placed ($/h of its nodes / pods)
//   priority    the group with the highest NodeGroupSpec::priority
// REQUIRES: `options` is not empty.
size_t ChooseOption(Expander expander, std::span<const ScaleUpOption> options,
                    std::span<const NodeGroupSpec> groups, Rng& rng);

}  // namespace migsim
