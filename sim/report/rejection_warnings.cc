#include "sim/report/run_report.h"

namespace migsim {

std::vector<std::string> RejectionWarnings(const RunReport& report) {
  std::vector<std::string> out;
  for (const VariantResult& v : report.variants) {
    if (v.rejected_decisions == 0) continue;
    out.push_back("policy '" + v.policy + "' in variant '" + v.name + "': " +
                  std::to_string(v.rejected_decisions) + " of " +
                  std::to_string(v.policy_decisions) + " decisions were rejected (first: " +
                  v.first_rejection + ")");
  }
  return out;
}

}  // namespace migsim
