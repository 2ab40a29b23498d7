#pragma once
// Merging the CSVs of a sharded sweep (sweep-shard-<i>-of-<N>.csv) back into the
// sweep.csv an unsharded run writes, byte for byte.

#include <string>
#include <utility>
#include <vector>

#include "sim/core/status.h"
#include "sim/report/sweep_csv.h"

namespace migsim {

struct MergedSweep {
  std::string csv;       // the contents of sweep.csv
  SweepResults results;  // its rows, for the table
};

// `files` are (path, contents) of shard CSVs, their file names (after the last '/')
// "sweep-shard-<i>-of-<N>.csv". They must all have the same N, cover every shard 0 … N-1
// exactly once, have the same header, and hold only their shard's points. The rows come
// out sorted by point, each point's rows in the order its shard wrote them.
// InvalidArgument naming the file otherwise.
Result<MergedSweep> MergeSweepShards(const std::vector<std::pair<std::string, std::string>>& files);

// Reads the shard CSVs and merges them. Each path is a shard CSV or a directory, which
// stands for every sweep-shard-<i>-of-<N>.csv in it. IoError when one cannot be read;
// InvalidArgument when a directory holds none, or as MergeSweepShards.
Result<MergedSweep> MergeSweepShardFiles(const std::vector<std::string>& paths);

}  // namespace migsim
