#pragma once
// `migsim openb --json`: the openb study's tables as one JSON document (README "JSON of
// the other commands"), from the rows the tables print (openb_summary.h).

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/study/openb/openb_campaign.h"

namespace migsim {

// {"runs", "fill": [{"policy", "trace", "seeds", "alloc_percent_at_100", "alloc_percent_at_130",
// "failed_pods"}] (each {"mean", "half_width", "n", "missing"}), "final_state": [{"policy",
// "trace", <kFinalStateColumns>: mean}], "refused_placements": {policy: count}, "mig": null |
// {"runs", "nodes", "rows": [{"variant", "trace", "placed_percent_at_100",
// "placed_percent_at_130", "slices_percent_at_130", "mig_frag_percent_at_100"}] (means, null
// without values)}}. `mig` null: the MIG edition did not run.
std::string FormatOpenbJson(const std::vector<FillRun>& runs,
                            const std::vector<std::string>& policies,
                            const std::map<std::string, int64_t>& refused,
                            const std::vector<MigFillRun>* mig);

}  // namespace migsim
