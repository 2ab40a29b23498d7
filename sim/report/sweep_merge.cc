#include "sim/report/sweep_merge.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <tuple>

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

// The stamp on the first line of a shard file; `*rest` is set to what follows it.
Result<ShardStamp> ReadStamp(const ShardFile& f, std::string_view* rest) {
  const std::string_view text = *f.text;
  const size_t end = text.find('\n');
  const std::optional<ShardStamp> stamp = ParseShardStamp(text.substr(0, end));
  if (!stamp) {
    return Status::InvalidArgument(
        "no shard stamp ('# migsim sweep shard i/N: P points, R rows, definition D'): migsim "
        "merge takes only the shard files migsim sweep --shard writes, unedited",
        {f.path, "line 1"});
  }
  if (stamp->shard.index != f.shard.index || stamp->shard.count != f.shard.count) {
    return Status::InvalidArgument("is stamped shard " + std::to_string(stamp->shard.index) + "/" +
                                       std::to_string(stamp->shard.count) + " but named as shard " +
                                       std::to_string(f.shard.index) + "/" +
                                       std::to_string(f.shard.count),
                                   {f.path, "line 1"});
  }
  *rest = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
  return *stamp;
}

// The first point of the shard with fewer rows than most of its points have (a row cut
// off or deleted), or its last point when they all have as many.
size_t ShortPoint(const std::map<size_t, size_t>& rows_of_point) {
  std::map<size_t, size_t> points_with;  // rows per point -> how many points
  for (const auto& [point, rows] : rows_of_point) ++points_with[rows];
  size_t usual = 0, most = 0;
  for (const auto& [rows, points] : points_with) {
    if (points > most) std::tie(usual, most) = std::pair{rows, points};
  }
  for (const auto& [point, rows] : rows_of_point) {
    if (rows < usual) return point;
  }
  return rows_of_point.empty() ? 0 : rows_of_point.rbegin()->first;
}

// Every row is one of the shard's points, each (point, variant) once, every point of the
// shard is there, and the rows are as many as the stamp says.
Status CheckShardRows(const ShardFile& f, const ShardStamp& stamp, const SweepCsv& csv) {
  const std::string shard =
      "shard " + std::to_string(f.shard.index) + " of " + std::to_string(f.shard.count);
  std::map<std::pair<size_t, std::string>, size_t> row_of;
  std::map<size_t, size_t> rows_of_point;
  for (size_t r = 0; r < csv.results.rows.size(); ++r) {
    const SweepRow& row = csv.results.rows[r];
    const InputLocation at{f.path, "row " + std::to_string(r + 1)};
    if (row.point >= stamp.points) {
      return Status::InvalidArgument("point " + std::to_string(row.point) +
                                         " is beyond the sweep's " + std::to_string(stamp.points) +
                                         " points",
                                     at);
    }
    if (!InShard(row.point, f.shard)) {
      return Status::InvalidArgument(
          "point " + std::to_string(row.point) + " does not belong to " + shard, at);
    }
    const auto [it, fresh] = row_of.emplace(std::pair{row.point, row.variant}, r + 1);
    if (!fresh) {
      return Status::InvalidArgument("point " + std::to_string(row.point) + ", variant " +
                                         row.variant + " appears twice (also row " +
                                         std::to_string(it->second) + ")",
                                     at);
    }
    ++rows_of_point[row.point];
  }
  for (size_t p = static_cast<size_t>(f.shard.index); p < stamp.points;
       p += static_cast<size_t>(f.shard.count)) {
    if (rows_of_point.count(p) == 0) {
      return Status::InvalidArgument("point " + std::to_string(p) + " of " + shard +
                                         " has no row (the file was cut or edited)",
                                     {f.path, ""});
    }
  }
  if (csv.results.rows.size() != stamp.rows) {
    return Status::InvalidArgument(
        "holds " + std::to_string(csv.results.rows.size()) + " rows but was written with " +
            std::to_string(stamp.rows) + " (the file was cut or edited): point " +
            std::to_string(ShortPoint(rows_of_point)) + " is short of rows",
        {f.path, ""});
  }
  return Status::Ok();
}

// "12 points, definition 0123456789abcdef": what must agree between shards.
std::string Describe(const ShardStamp& stamp) {
  const std::string line = FormatShardStamp(stamp);  // ends in "definition <16 digits>\n"
  return std::to_string(stamp.points) + " points, " + line.substr(line.rfind("definition"), 27);
}

// One shard's rows, its stamp checked against its name and the first shard's.
// `*own` is set to its stamp.
Result<SweepCsv> ReadShard(const ShardFile& f, const ShardFile& first,
                           std::optional<ShardStamp>* first_stamp, ShardStamp* own) {
  std::string_view rest;
  Result<ShardStamp> stamp = ReadStamp(f, &rest);
  if (!stamp.ok()) return stamp.status();
  *own = stamp.value();
  if (!*first_stamp) *first_stamp = stamp.value();
  const ShardStamp& one = **first_stamp;
  if (stamp.value().points != one.points || stamp.value().definition != one.definition) {
    return Status::InvalidArgument("is a shard of another sweep than " + first.path + " (" +
                                       Describe(stamp.value()) + ", not " + Describe(one) +
                                       "): merge the shards of one sweep, unchanged between them",
                                   {f.path, "line 1"});
  }
  return ParseSweepCsv(rest, f.path, 2);
}

}  // namespace

Result<MergedSweep> MergeSweepShards(
    const std::vector<std::pair<std::string, std::string>>& files) {
  Result<std::vector<ShardFile>> ordered = OrderShards(files);
  if (!ordered.ok()) return ordered.status();
  std::vector<SweepCsv> csvs;
  std::optional<ShardStamp> first_stamp;
  for (const ShardFile& f : ordered.value()) {
    ShardStamp stamp;
    Result<SweepCsv> csv = ReadShard(f, ordered.value()[0], &first_stamp, &stamp);
    if (!csv.ok()) return csv.status();
    if (!csvs.empty() && csv.value().header != csvs[0].header) {
      return Status::InvalidArgument("header differs from the one of " + ordered.value()[0].path +
                                         " (shards of another sweep?)",
                                     {f.path, "line 2"});
    }
    if (Status s = CheckShardRows(f, stamp, csv.value()); !s.ok()) return s;
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
      const std::string name = it->path().filename().string();
      if (ShardOfCsvName(name)) {
        found.push_back(it->path().string());
      } else if (name.starts_with("sweep-shard-") && name.ends_with(".csv")) {
        return Status::InvalidArgument(
            "named like a shard file but not one migsim sweep --shard writes "
            "(sweep-shard-<i>-of-<N>.csv with 0 <= i < N): move it away to merge this directory",
            {it->path().string(), ""});
      }
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
