#pragma once
// A sweep's results as CSV (columns in scenarios/README.md, "Sweep files"). A CSV written
// by FormatSweepCsv reads back through ParseSweepCsv to the same rows, so `migsim merge`
// prints the same table as the sweep that wrote the shards.

#include <string>
#include <string_view>
#include <vector>

#include "sim/core/status.h"
#include "sim/study/sweep/sweep_results.h"

namespace migsim {

// point,<columns...>,variant,makespan_s,p50_s,p95_s,p99_s,max_s,gpu_allocation_ratio,
// gpu_compute_utilization,completed,failed,running,pending,deleted,cost_per_hour,preemptions,
// gpu_hours_lost_to_preemption,faults,gpu_hours_lost_to_faults,goodput,deleted_unbound,
// never_bound,longest_wait_s,pending_peak,pending_mean — one row per run,
// fields quoted as RFC 4180 needs, "\n" line ends.
std::string FormatSweepCsv(const SweepResults& results);

// A sweep CSV read back: its rows, plus the header and each row exactly as written, so
// that shards can be merged byte for byte.
struct SweepCsv {
  std::string header;  // the header line, line break included
  SweepResults results;
  std::vector<std::string> row_texts;  // one per row, line break included
};

// InvalidArgument located at "line N" of `file_label`, e.g. "expected 17 fields, got 16".
Result<SweepCsv> ParseSweepCsv(std::string_view text, const std::string& file_label);

}  // namespace migsim
