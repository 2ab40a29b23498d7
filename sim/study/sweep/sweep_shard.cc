#include "sim/study/sweep/sweep_shard.h"

#include <charconv>

#include "sim/core/digest.h"

namespace migsim {
namespace {

// A whole decimal number in [0, kMaxShards], nothing else (no sign, no spaces).
std::optional<int> ParseCount(std::string_view text) {
  int value = 0;
  if (text.empty() || text.size() > 6 || text[0] < '0' || text[0] > '9') return std::nullopt;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value > kMaxShards) {
    return std::nullopt;
  }
  return value;
}

}  // namespace

Result<Shard> ParseShard(std::string_view text, std::string_view what) {
  const size_t slash = text.find('/');
  std::optional<int> index, count;
  if (slash != std::string_view::npos) {
    index = ParseCount(text.substr(0, slash));
    count = ParseCount(text.substr(slash + 1));
  }
  if (!index || !count || *count < 1 || *index >= *count) {
    return Status::InvalidArgument(
        std::string(what) + ": expected i/N with 0 <= i < N <= " + std::to_string(kMaxShards) +
        ", got '" + std::string(text) + "'");
  }
  return Shard{*index, *count};
}

Result<std::optional<Shard>> ShardFromEnvironment(const ShardEnvironment& env) {
  const char* variable = env.job_completion_index ? "JOB_COMPLETION_INDEX" : "SLURM_ARRAY_TASK_ID";
  const std::optional<std::string>& index =
      env.job_completion_index ? env.job_completion_index : env.slurm_array_task_id;
  if (!index) return std::optional<Shard>();
  if (!env.migsim_shards) {
    return Status::InvalidArgument(std::string(variable) + " is set (" + *index +
                                   ") but MIGSIM_SHARDS is not: set MIGSIM_SHARDS to the number "
                                   "of shards (the Job's completions, the array's size), or "
                                   "pass --shard i/N");
  }
  const std::string text = *index + "/" + *env.migsim_shards;
  Result<Shard> shard = ParseShard(text, std::string(variable) + "/MIGSIM_SHARDS");
  if (!shard.ok()) return shard.status();
  return std::optional<Shard>(shard.value());
}

bool InShard(size_t point, const std::optional<Shard>& shard) {
  return !shard || point % static_cast<size_t>(shard->count) == static_cast<size_t>(shard->index);
}

std::string SweepCsvName(const std::optional<Shard>& shard) {
  if (!shard) return "sweep.csv";
  return "sweep-shard-" + std::to_string(shard->index) + "-of-" + std::to_string(shard->count) +
         ".csv";
}

std::optional<Shard> ShardOfCsvName(std::string_view name) {
  constexpr std::string_view kPrefix = "sweep-shard-", kOf = "-of-", kSuffix = ".csv";
  if (!name.starts_with(kPrefix) || !name.ends_with(kSuffix)) return std::nullopt;
  name = name.substr(kPrefix.size(), name.size() - kPrefix.size() - kSuffix.size());
  const size_t of = name.find(kOf);
  if (of == std::string_view::npos) return std::nullopt;
  const std::string text =
      std::string(name.substr(0, of)) + "/" + std::string(name.substr(of + kOf.size()));
  Result<Shard> shard = ParseShard(text);
  if (!shard.ok()) return std::nullopt;
  // Only the spelling SweepCsvName writes: "sweep-shard-01-of-3.csv" is someone else's file.
  if (SweepCsvName(shard.value()) != std::string(kPrefix) + std::string(name) + ".csv") {
    return std::nullopt;
  }
  return shard.value();
}

uint64_t SweepDefinitionDigest(const SweepFile& sweep, const std::vector<uint64_t>& file_digests) {
  // Each piece ends with a NUL byte, which JSON text never holds raw, so that ("ab", "c")
  // and ("a", "bc") differ.
  uint64_t d = kFnvOffset;
  const auto add = [&d](std::string_view piece) {
    d = Fnv1a64(std::string_view("\0", 1), Fnv1a64(piece, d));
  };
  for (const std::string& column : sweep.columns) add(column);
  for (const SweepPoint& point : sweep.points) {
    add(std::to_string(point.index));
    for (const std::string& value : point.values) add(value);
    for (const auto& [name, scenario] : point.scenario.variants) add(name);
  }
  for (const uint64_t file : file_digests) add(std::to_string(file));
  return d;
}

}  // namespace migsim
