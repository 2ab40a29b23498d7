#pragma once
// A sweep's results as CSV (columns in scenarios/README.md, "Sweep files"). A CSV written
// by FormatSweepCsv reads back through ParseSweepCsv to the same rows, so `migsim merge`
// prints the same table as the sweep that wrote the shards.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/status.h"
#include "sim/study/sweep/sweep_results.h"
#include "sim/study/sweep/sweep_shard.h"

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

// InvalidArgument located at "line N" of `file_label`, e.g. "expected 17 fields, got 16";
// `first_line` is the line number of the header in the file.
Result<SweepCsv> ParseSweepCsv(std::string_view text, const std::string& file_label,
                               size_t first_line = 1);

// What the first line of a shard CSV says about it, so that `migsim merge` can prove a set
// of shards complete and unique: which shard of how many, the sweep's number of points,
// the rows the shard holds, and the digest of the sweep's definition
// (SweepDefinitionDigest).
struct ShardStamp {
  Shard shard;
  size_t points = 0;
  size_t rows = 0;
  uint64_t definition = 0;
};

// "# migsim sweep shard 1/4: 12 points, 6 rows, definition 0123456789abcdef\n".
std::string FormatShardStamp(const ShardStamp& stamp);
// The stamp a line (without its line break) is, as FormatShardStamp writes it exactly.
std::optional<ShardStamp> ParseShardStamp(std::string_view line);

// A shard's CSV: its stamp (the rows counted from `results`), then FormatSweepCsv.
std::string FormatSweepShardCsv(const SweepResults& results, const Shard& shard, size_t points,
                                uint64_t definition);

}  // namespace migsim
