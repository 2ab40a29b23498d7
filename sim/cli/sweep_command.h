#pragma once
// `migsim sweep`: run a scenario over a grid of parameter values (a sweep file), on all
// cores, optionally one shard of it; `migsim merge`: put the shards' CSVs back together.
// The sweep file format and the CSV columns are in scenarios/README.md ("Sweep files").

#include <string>
#include <vector>

namespace migsim {

struct SweepOptions {
  std::string sweep_path;
  int jobs = 0;  // worker threads; 0: every core
  // "i/N": run only the points p with p % N == i. Empty: from the environment
  // (JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID, with MIGSIM_SHARDS), else every point.
  std::string shard;
  std::string out_dir;  // also write sweep.csv (sweep-shard-<i>-of-<N>.csv for a shard) here
  bool quiet = false;   // no progress on stderr
  std::string report;   // also write the HTML report (sweep_report.h) here; not for a shard
  bool json = false;    // the results as one JSON document (FormatSweepJson), not the table
};

// Exit code: 0 success; 2 bad input or usage (one message on stderr, nothing run or
// written); 1 when the output cannot be written.
int SweepCommand(const SweepOptions& options);

struct MergeOptions {
  // A directory holding sweep-shard-<i>-of-<N>.csv files, or the shard files themselves.
  std::vector<std::string> inputs;
  // Where sweep.csv goes; empty: the first input if it is a directory, else that file's
  // directory.
  std::string out_dir;
  bool json = false;  // the merged results as one JSON document, not the table
};

// Exit code: 0 success; 2 bad input (missing or mismatched shards; nothing written); 1
// when sweep.csv cannot be written.
int MergeCommand(const MergeOptions& options);

}  // namespace migsim
