#include <cmath>
#include <cstdio>
#include <string>

#include "sim/report/run_report.h"

namespace migsim {
namespace {

// Six decimals; a value that rounds to zero prints as 0.000000, never -0.000000.
std::string Fixed(double v) {
  if (std::fabs(v) < 5e-7) v = 0;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.6f", v);
  return buf;
}

}  // namespace

std::string FormatTimeseriesCsv(const VariantResult& variant) {
  std::string out = "time_s,allocation,utilization,pending,running\n";
  for (const TimelinePoint& p : variant.timeline) {
    out += Fixed(p.at.seconds()) + "," + Fixed(p.allocation) + "," + Fixed(p.utilization) +
           "," + std::to_string(p.pending) + "," + std::to_string(p.running) + "\n";
  }
  return out;
}

}  // namespace migsim
