#pragma once
// The flag checks of `migsim openb` (--seeds, --policy, --tune), each an InvalidArgument
// naming the flag when it fails.

#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/status.h"
#include "sim/study/openb/openb_campaign.h"

namespace migsim {

// --seeds: ParseSeedList (fill_policies.h).
Result<std::vector<uint64_t>> ParseSeeds(const std::string& text);

// --policy: GpuShareScorerNames() entries or other built-in policies' names, no name
// twice, or "all" alone; empty or "all" gives the six GpuShareScorerNames().
Result<std::vector<std::string>> CheckPolicies(const std::vector<std::string>& given);

// --policy and --policy-file together: each --policy name one of the six study scorers
// (run exactly), "all" alone (the six), or any other built-in policy with its default
// parameters; each --policy-file a JSON policy object as a scenario's "policy", read by
// the scenario's loader (errors name the file and the JSON pointer). Neither given: the
// six. No label twice.
Result<std::vector<FillPolicy>> ResolveFillPolicies(const std::vector<std::string>& names,
                                                    const std::vector<std::string>& files);

// --tune: in (0, 10].
Status CheckTune(double tune);

}  // namespace migsim
