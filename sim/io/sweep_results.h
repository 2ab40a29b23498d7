#pragma once
// The results of a sweep: one row per run (point x variant), the CSV that holds them and
// the table that shows them. Columns are documented in scenarios/README.md ("Sweep
// files"). A CSV written by FormatSweepCsv reads back through ParseSweepCsv to the same
// rows, so `migsim merge` prints the same table as the sweep that wrote the shards.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/status.h"

namespace migsim {

// Times in seconds and ratios are rounded to the microsecond (six decimals), the
// precision the CSV keeps, so a row read back from its CSV equals the row written.
struct SweepRow {
  size_t point = 0;
  std::vector<std::string> values;  // per column: JSON text, "" when the point leaves it
  std::string variant;
  std::optional<double> makespan_s;                   // nullopt when no pod completed
  double p50_s = 0, p95_s = 0, p99_s = 0, max_s = 0;  // queueing latency
  double gpu_allocation_ratio = 0, gpu_compute_utilization = 0;
  int64_t completed = 0, failed = 0, running = 0, pending = 0, deleted = 0;
  double cost_per_hour = 0;  // the cluster's nodes' price per hour, summed
};

struct SweepResults {
  std::vector<std::string> columns;  // the pointers the points set
  std::vector<SweepRow> rows;        // by point, then variant in the scenario's order
};

// x rounded to the microsecond; -0 becomes 0.
double RoundToMicro(double x);

// point,<columns...>,variant,makespan_s,p50_s,p95_s,p99_s,max_s,gpu_allocation_ratio,
// gpu_compute_utilization,completed,failed,running,pending,deleted,cost_per_hour — one row
// per run, fields quoted as RFC 4180 needs, "\n" line ends.
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

// A row per run: point, the values it sets, variant, makespan, p95 queueing latency,
// GPU allocation ratio and compute utilization, pods completed/failed/pending, cost.
std::string FormatSweepTable(const SweepResults& results);

}  // namespace migsim
