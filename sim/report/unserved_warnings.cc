#include "sim/metrics/unserved_demand.h"
#include "sim/report/run_report.h"

namespace migsim {

std::vector<std::string> UnservedWarnings(const RunReport& report) {
  std::vector<std::string> out;
  for (const VariantResult& v : report.variants) {
    const std::string deleted = DescribeUnboundDeletions(v.metrics.unserved);
    if (!deleted.empty()) out.push_back("variant " + v.name + ": " + deleted);
  }
  return out;
}

}  // namespace migsim
