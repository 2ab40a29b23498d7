#include "sim/report/run_report.h"

namespace migsim {

std::vector<std::string> RejectionWarnings(const RunReport& report) {
  std::vector<std::string> out;
  for (const VariantResult& v : report.variants) {
    if (v.rejected_decisions == 0) continue;
    out.push_back("policy '" + v.policy + "' in variant '" + v.name + "': " +
                  RejectionMessage(v));
  }
  return out;
}

}  // namespace migsim
