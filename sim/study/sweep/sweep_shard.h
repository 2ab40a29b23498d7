#pragma once
// Splitting a sweep over several machines: shard i of N runs the points p with
// p % N == i. A point's runs (its variants) stay together, so each shard's CSV holds
// whole points and `migsim merge` only has to interleave them again.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/status.h"
#include "sim/io/sweep_json.h"

namespace migsim {

struct Shard {
  int index = 0;  // 0-based, < count
  int count = 1;  // at most kMaxShards
};

constexpr int kMaxShards = 100000;

// "i/N" with 0 <= i < N <= kMaxShards. InvalidArgument naming `what` (e.g. "--shard").
Result<Shard> ParseShard(std::string_view text, std::string_view what = "--shard");

// The environment variables a batch system sets, as read by the caller (nullopt: unset).
struct ShardEnvironment {
  std::optional<std::string> job_completion_index;  // Kubernetes Indexed Job
  std::optional<std::string> slurm_array_task_id;   // Slurm job array
  std::optional<std::string> migsim_shards;         // the number of shards, N
};

// The shard named by the environment: the index from JOB_COMPLETION_INDEX, else from
// SLURM_ARRAY_TASK_ID, and N from MIGSIM_SHARDS. nullopt when neither index variable is
// set (MIGSIM_SHARDS alone is ignored). InvalidArgument when an index is set without
// MIGSIM_SHARDS, or when a value is not a number in range.
Result<std::optional<Shard>> ShardFromEnvironment(const ShardEnvironment& env);

// Whether point `point` belongs to `shard` (every point does when there is none).
bool InShard(size_t point, const std::optional<Shard>& shard);

// "sweep.csv" unsharded, "sweep-shard-<i>-of-<N>.csv" for a shard.
std::string SweepCsvName(const std::optional<Shard>& shard);

// The shard a file name "sweep-shard-<i>-of-<N>.csv" (without directory) stands for.
std::optional<Shard> ShardOfCsvName(std::string_view file_name);

// A digest of what a sweep runs, stamped on its shard CSVs so that a merge takes only the
// shards of one sweep: its columns, every point's values and variant names, and
// `file_digests`, those of the files it was read from (the sweep file, its scenario and
// the files that names: FilesRead, input_file.h), so that shards run before and after an
// edit are told apart.
uint64_t SweepDefinitionDigest(const SweepFile& sweep, const std::vector<uint64_t>& file_digests);

}  // namespace migsim
