#include <cmath>
#include <cstdio>
#include <string>

#include "sim/report/csv_field.h"
#include "sim/report/run_report.h"

namespace migsim {

std::string FormatTimeseriesCsv(const VariantResult& variant) {
  std::string out = "time_s,allocation,utilization,pending,running\n";
  for (const TimelinePoint& p : variant.timeline) {
    out += CsvFixed(p.at.seconds()) + "," + CsvFixed(p.allocation) + "," + CsvFixed(p.utilization) +
           "," + std::to_string(p.pending) + "," + std::to_string(p.running) + "\n";
  }
  return out;
}

}  // namespace migsim
