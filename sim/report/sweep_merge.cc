#include "sim/report/sweep_merge.h"

#include <algorithm>
#include <filesystem>
#include <optional>

#include "sim/core/text.h"
#include "sim/io/input_file.h"
#include "sim/study/sweep/sweep_shard.h"

namespace migsim {
namespace {

namespace fs = std::filesystem;

struct ShardFile {
  std::string path;
  Shard shard;
  const std::string* text;
};

std::string FileName(const std::string& path) { return fs::path(path).filename().string(); }

// The files by shard index, after checking they are the N shards of one sweep.
Result<std::vector<ShardFile>> OrderShards(
    const std::vector<std::pair<std::string, std::string>>& files) {
  if (files.empty()) return Status::InvalidArgument("no shard files to merge");
  std::vector<ShardFile> shards;
  for (const auto& [path, text] : files) {
    std::optional<Shard> shard = ShardOfCsvName(FileName(path));
    if (!shard) {
      return Status::InvalidArgument("not a shard file name (expected sweep-shard-<i>-of-<N>.csv)",
                                     {path, ""});
    }
    if (!shards.empty() && shard->count != shards[0].shard.count) {
      return Status::InvalidArgument("is one of " + std::to_string(shard->count) + " shards, but " +
                                         shards[0].path + " is one of " +
                                         std::to_string(shards[0].shard.count) +
                                         ": merge the shards of one sweep at a time",
                                     {path, ""});
    }
    shards.push_back({path, *shard, &text});
  }
  std::stable_sort(shards.begin(), shards.end(), [](const ShardFile& a, const ShardFile& b) {
    return a.shard.index < b.shard.index;
  });
  const int count = shards[0].shard.count;
  for (size_t k = 0; k + 1 < shards.size(); ++k) {
    if (shards[k].shard.index == shards[k + 1].shard.index) {
      return Status::InvalidArgument("shard " + std::to_string(shards[k].shard.index) + " of " +
                                         std::to_string(count) + " is given twice (also " +
                                         shards[k + 1].path + ")",
                                     {shards[k].path, ""});
    }
  }
  std::vector<bool> present(static_cast<size_t>(count));
  std::vector<std::string> found;
  for (const ShardFile& f : shards) {
    present[static_cast<size_t>(f.shard.index)] = true;
    found.push_back(FileName(f.path));
  }
  const auto missing = std::find(present.begin(), present.end(), false);
  if (missing != present.end()) {
    const Shard expected{static_cast<int>(missing - present.begin()), count};
    return Status::InvalidArgument(
        "missing " + SweepCsvName(expected) + ": a merge needs all " + std::to_string(count) +
            " shards (found " + std::to_string(shards.size()) + ": " + JoinNames(found) + ")",
        {fs::path(shards[0].path).parent_path().string(), ""});
  }
  return shards;
}

}  // namespace

Result<MergedSweep> MergeSweepShards(
    const std::vector<std::pair<std::string, std::string>>& files) {
  Result<std::vector<ShardFile>> ordered = OrderShards(files);
  if (!ordered.ok()) return ordered.status();
  std::vector<SweepCsv> csvs;
  for (const ShardFile& f : ordered.value()) {
    Result<SweepCsv> csv = ParseSweepCsv(*f.text, f.path);
    if (!csv.ok()) return csv.status();
    if (!csvs.empty() && csv.value().header != csvs[0].header) {
      return Status::InvalidArgument("header differs from the one of " + ordered.value()[0].path +
                                         " (shards of another sweep?)",
                                     {f.path, "line 1"});
    }
    for (size_t r = 0; r < csv.value().results.rows.size(); ++r) {
      const size_t point = csv.value().results.rows[r].point;
      if (!InShard(point, f.shard)) {
        return Status::InvalidArgument(
            "point " + std::to_string(point) + " does not belong to shard " +
                std::to_string(f.shard.index) + " of " + std::to_string(f.shard.count),
            {f.path, "row " + std::to_string(r + 1)});
      }
    }
    csvs.push_back(std::move(csv).value());
  }
  struct Entry {
    const SweepRow* row;
    const std::string* text;
  };
  std::vector<Entry> entries;
  for (const SweepCsv& csv : csvs) {
    for (size_t r = 0; r < csv.row_texts.size(); ++r) {
      entries.push_back({&csv.results.rows[r], &csv.row_texts[r]});
    }
  }
  // Stable: a point's rows all come from one shard, already in the order it ran them.
  std::stable_sort(entries.begin(), entries.end(),
                   [](const Entry& a, const Entry& b) { return a.row->point < b.row->point; });
  MergedSweep merged;
  merged.csv = csvs[0].header;
  merged.results.columns = csvs[0].results.columns;
  for (const Entry& e : entries) {
    merged.csv += *e.text;
    merged.results.rows.push_back(*e.row);
  }
  return merged;
}

Result<MergedSweep> MergeSweepShardFiles(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code ec;
    if (!fs::is_directory(path, ec)) {
      files.push_back(path);
      continue;
    }
    std::vector<std::string> found;
    for (fs::directory_iterator it(path, ec); !ec && it != fs::directory_iterator();
         it.increment(ec)) {
      if (ShardOfCsvName(it->path().filename().string())) found.push_back(it->path().string());
    }
    if (ec) return Status::IoError("cannot list directory: " + ec.message(), {path, ""});
    if (found.empty()) {
      return Status::InvalidArgument("no sweep-shard-<i>-of-<N>.csv files in this directory",
                                     {path, ""});
    }
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  std::vector<std::pair<std::string, std::string>> contents;
  for (const std::string& file : files) {
    Result<std::string> text = ReadInputFile(file);
    if (!text.ok()) return text.status();
    contents.emplace_back(file, std::move(text).value());
  }
  return MergeSweepShards(contents);
}

}  // namespace migsim
