#pragma once
// `migsim sweep --json` and `migsim merge --json`: a sweep's results as one JSON document
// (README "JSON of the other commands"), from the rows sweep.csv and the table are written
// from, each metric through the one list of sweep.csv's columns (sweep_metrics.h), and the
// seed intervals through the table's grouping (sweep_seed_groups.h).

#include <string>

#include "sim/study/sweep/sweep_results.h"

namespace migsim {

// {"columns": [pointer], "column_titles": [title], "runs": [{"point", "values": {pointer:
// value | null}, "variant", "metrics": {<sweep.csv column>: number | null}}],
// "seed_intervals": null | [{"values": {pointer: value | null} (without "/seed"),
// "variant", "seeds", "metrics": {<column>: {"mean", "half_width", "n"} | null}}]}.
// seed_intervals is there when the table shows its interval table (a "/seed" axis and some
// group of more than one run).
std::string FormatSweepJson(const SweepResults& results);

}  // namespace migsim
