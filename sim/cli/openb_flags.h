#pragma once
// The flag checks of `migsim openb` (--seeds, --policy, --tune), each an InvalidArgument
// naming the flag when it fails.

#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/status.h"

namespace migsim {

// "42-51", "1,2,3" or both ("1-3,7"): items separated by commas, each a decimal seed or an
// inclusive range lo-hi with lo <= hi. No seed twice, at most 10,000. In the given order.
Result<std::vector<uint64_t>> ParseSeeds(const std::string& text);

// --policy: GpuShareScorerNames() entries, no name twice, or "all" alone; empty or "all"
// gives every policy.
Result<std::vector<std::string>> CheckPolicies(const std::vector<std::string>& given);

// --tune: in (0, 10].
Status CheckTune(double tune);

}  // namespace migsim
