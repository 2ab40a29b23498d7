#pragma once
// The HTML report of a sweep (`migsim sweep --report`, `migsim report DIR`), drawn from
// the text of its sweep.csv alone, so that a finished (or merged) sweep's report can be
// drawn again byte for byte: each metric that varies against each axis, one line per value
// of the other axes and variant, the mean over the seeds with its 95 % confidence interval
// as a band (error bars on a categorical axis); the means table and the runs table.

#include <string>
#include <string_view>

#include "sim/core/status.h"

namespace migsim {

// InvalidArgument at `path`, line N, when `csv` is not a sweep CSV (ParseSweepCsv).
Result<std::string> SweepReportHtml(std::string_view csv, const std::string& path);

}  // namespace migsim
