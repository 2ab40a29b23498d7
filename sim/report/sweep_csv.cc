#include "sim/report/sweep_csv.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <span>

#include "sim/report/csv_field.h"
#include "sim/report/csv_table.h"
#include "sim/report/sweep_metrics.h"

namespace migsim {
namespace {

template <typename Int>
std::optional<Int> ToInt(const std::string& s) {
  Int v = 0;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || error != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// Fills `row` from a record's fields; returns the name of the first bad column, or "".
std::string ReadRow(const std::vector<std::string>& f, size_t columns, SweepRow* row) {
  std::optional<size_t> point = ToInt<size_t>(f[0]);
  if (!point) return "point";
  row->point = *point;
  row->values.assign(f.begin() + 1, f.begin() + 1 + static_cast<std::ptrdiff_t>(columns));
  row->variant = f[columns + 1];
  const std::span<const SweepMetric> metrics = SweepMetrics();
  for (size_t i = 0; i < metrics.size(); ++i) {
    if (!metrics[i].Read(f[columns + 2 + i], row)) return std::string(metrics[i].name);
  }
  return "";
}

// Whether `fields` end in the metric columns' first `count` names, after "variant".
bool EndsInMetrics(const std::vector<std::string>& fields, size_t count) {
  if (fields.size() < count + 2 || fields[0] != "point") return false;
  const size_t columns = fields.size() - count - 2;
  if (fields[columns + 1] != "variant") return false;
  for (size_t i = 0; i < count; ++i) {
    if (fields[columns + 2 + i] != SweepMetrics()[i].name) return false;
  }
  return true;
}

bool IsSweepHeader(const std::vector<std::string>& fields) {
  return EndsInMetrics(fields, SweepMetrics().size());
}

}  // namespace

std::string FormatSweepCsv(const SweepResults& results) {
  std::string out = "point";
  for (const std::string& column : results.columns) out += "," + CsvField(column);
  out += ",variant";
  for (const SweepMetric& metric : SweepMetrics()) out += "," + std::string(metric.name);
  out += "\n";
  for (const SweepRow& r : results.rows) {
    out += std::to_string(r.point);
    for (const std::string& value : r.values) out += "," + CsvField(value);
    out += "," + CsvField(r.variant);
    for (const SweepMetric& metric : SweepMetrics()) out += "," + metric.Format(r);
    out += "\n";
  }
  return out;
}

namespace {

// A record as it is merged: ending in one LF, whether its file used CRLF or ended
// without a newline (an editor may drop the last one).
void NormalizeEnd(std::string* record) {
  if (record->ends_with("\r\n")) {
    record->erase(record->size() - 2, 1);
  } else if (!record->ends_with('\n')) {
    *record += '\n';
  }
}

}  // namespace

Result<SweepCsv> ParseSweepCsv(std::string_view text, const std::string& file_label,
                               size_t first_line) {
  SweepCsv csv;
  std::vector<std::string> fields;
  auto error = [&](size_t line, const std::string& message) {
    return Status::InvalidArgument(message, {file_label, "line " + std::to_string(line)});
  };
  const bool read = NextCsvRecord(&text, &fields, &csv.header);
  if (read && !IsSweepHeader(fields) && EndsInMetrics(fields, LegacySweepMetricCount())) {
    return error(first_line, "written by an earlier migsim, without the columns " +
                                 std::string(SweepMetrics()[LegacySweepMetricCount()].name) +
                                 " ... " + std::string(SweepMetrics().back().name) +
                                 ": run the sweep (or its shards) again with this version");
  }
  if (!read || !IsSweepHeader(fields)) {
    return error(first_line,
                 "not a sweep CSV: expected the header point,<pointers...>,variant,"
                 "makespan_s,...,co2_kg,queueing_mean_s,...,cost_usd");
  }
  NormalizeEnd(&csv.header);
  const size_t width = fields.size();
  csv.results.columns.assign(fields.begin() + 1,
                             fields.end() - static_cast<std::ptrdiff_t>(SweepMetrics().size()) - 1);
  size_t next_line =
      first_line + static_cast<size_t>(std::count(csv.header.begin(), csv.header.end(), '\n'));
  while (!text.empty()) {
    std::string raw;
    const size_t line = next_line;
    const bool complete = NextCsvRecord(&text, &fields, &raw);
    next_line += static_cast<size_t>(std::count(raw.begin(), raw.end(), '\n'));
    if (!complete) return error(line, "unterminated quoted field");
    if (raw == "\n" || raw == "\r\n") continue;  // a blank line
    if (fields.size() != width) {
      return error(line, "expected " + std::to_string(width) + " fields, got " +
                             std::to_string(fields.size()));
    }
    SweepRow row;
    if (std::string bad = ReadRow(fields, csv.results.columns.size(), &row); !bad.empty()) {
      return error(line, bad + ": not a number");
    }
    csv.results.rows.push_back(std::move(row));
    NormalizeEnd(&raw);
    csv.row_texts.push_back(std::move(raw));
  }
  return csv;
}

std::string FormatShardStamp(const ShardStamp& stamp) {
  char digest[17];
  std::snprintf(digest, sizeof digest, "%016llx",
                static_cast<unsigned long long>(stamp.definition));
  return "# migsim sweep shard " + std::to_string(stamp.shard.index) + "/" +
         std::to_string(stamp.shard.count) + ": " + std::to_string(stamp.points) + " points, " +
         std::to_string(stamp.rows) + " rows, definition " + digest + "\n";
}

std::optional<ShardStamp> ParseShardStamp(std::string_view line) {
  if (line.ends_with('\r')) line.remove_suffix(1);
  const std::string text(line);
  int index = 0, count = 0;
  unsigned long long points = 0, rows = 0, definition = 0;
  if (std::sscanf(text.c_str(),
                  "# migsim sweep shard %d/%d: %llu points, %llu rows, definition %llx", &index,
                  &count, &points, &rows, &definition) != 5) {
    return std::nullopt;
  }
  const ShardStamp stamp{Shard{index, count}, static_cast<size_t>(points),
                         static_cast<size_t>(rows), static_cast<uint64_t>(definition)};
  // Only the exact spelling: no sign, no leading zeros, nothing after.
  if (FormatShardStamp(stamp) != text + "\n") return std::nullopt;
  return stamp;
}

std::string FormatSweepShardCsv(const SweepResults& results, const Shard& shard, size_t points,
                                uint64_t definition) {
  return FormatShardStamp({shard, points, results.rows.size(), definition}) +
         FormatSweepCsv(results);
}

}  // namespace migsim
