#include "sim/report/sweep_csv.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "sim/report/csv_field.h"

namespace migsim {
namespace {

constexpr std::string_view kMetricColumns[] = {"makespan_s",
                                               "p50_s",
                                               "p95_s",
                                               "p99_s",
                                               "max_s",
                                               "gpu_allocation_ratio",
                                               "gpu_compute_utilization",
                                               "completed",
                                               "failed",
                                               "running",
                                               "pending",
                                               "deleted",
                                               "cost_per_hour",
                                               "preemptions",
                                               "gpu_hours_lost_to_preemption",
                                               "faults",
                                               "gpu_hours_lost_to_faults",
                                               "goodput",
                                               "deleted_unbound",
                                               "never_bound",
                                               "longest_wait_s",
                                               "pending_peak",
                                               "pending_mean",
                                               "energy_kwh",
                                               "gpu_kwh",
                                               "allocated_idle_kwh",
                                               "node_kwh",
                                               "energy_cost",
                                               "co2_kg"};
constexpr size_t kMetricCount = std::size(kMetricColumns);

std::string Fixed(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.6f", RoundToMicro(v));
  return buf;
}

// Splits one record off the front of `text`: its fields unquoted, and its raw text with
// the line break. A quoted field may hold line breaks. Returns false on an unterminated
// quote.
bool NextRecord(std::string_view* text, std::vector<std::string>* fields, std::string* raw) {
  fields->assign(1, "");
  bool quoted = false;
  size_t i = 0;
  for (; i < text->size(); ++i) {
    const char c = (*text)[i];
    if (quoted) {
      if (c != '"') {
        fields->back() += c;
      } else if (i + 1 < text->size() && (*text)[i + 1] == '"') {
        fields->back() += '"';
        ++i;
      } else {
        quoted = false;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields->emplace_back();
    } else if (c == '\n') {
      break;
    } else if (c != '\r') {
      fields->back() += c;
    }
  }
  const size_t end = i < text->size() ? i + 1 : i;
  *raw = std::string(text->substr(0, end));
  text->remove_prefix(end);
  return !quoted;
}

std::optional<double> ToDouble(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

template <typename Int>
std::optional<Int> ToInt(const std::string& s) {
  Int v = 0;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || error != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// The disruption columns, from preemptions on; returns the first bad column's name, or "".
std::string ReadDisruptions(const std::string* m, SweepRow* row) {
  const std::optional<int64_t> preemptions = ToInt<int64_t>(m[0]);
  if (!preemptions) return "preemptions";
  row->preemptions = *preemptions;
  const std::optional<double> preempted_h = ToDouble(m[1]);
  if (!preempted_h) return "gpu_hours_lost_to_preemption";
  row->gpu_hours_lost_to_preemption = *preempted_h;
  const std::optional<int64_t> faults = ToInt<int64_t>(m[2]);
  if (!faults) return "faults";
  row->faults = *faults;
  const std::optional<double> fault_h = ToDouble(m[3]);
  if (!fault_h) return "gpu_hours_lost_to_faults";
  row->gpu_hours_lost_to_faults = *fault_h;
  if (!m[4].empty() && !(row->goodput = ToDouble(m[4]))) return "goodput";
  return "";
}

// The unserved-demand columns, from deleted_unbound on; returns the first bad column's
// name, or "".
std::string ReadUnserved(const std::string* m, SweepRow* row) {
  const std::optional<int64_t> deleted_unbound = ToInt<int64_t>(m[0]);
  if (!deleted_unbound) return "deleted_unbound";
  row->deleted_unbound = *deleted_unbound;
  const std::optional<int64_t> never_bound = ToInt<int64_t>(m[1]);
  if (!never_bound) return "never_bound";
  row->never_bound = *never_bound;
  const std::optional<double> longest = ToDouble(m[2]);
  if (!longest) return "longest_wait_s";
  row->longest_wait_s = *longest;
  const std::optional<int64_t> peak = ToInt<int64_t>(m[3]);
  if (!peak) return "pending_peak";
  row->pending_peak = *peak;
  const std::optional<double> mean = ToDouble(m[4]);
  if (!mean) return "pending_mean";
  row->pending_mean = *mean;
  return "";
}

// The energy columns, from energy_kwh on; returns the first bad column's name, or "".
std::string ReadEnergy(const std::string* m, SweepRow* row) {
  double* fields[] = {&row->energy_kwh,  &row->gpu_kwh,     &row->allocated_idle_kwh,
                      &row->node_kwh,    &row->energy_cost, &row->co2_kg};
  for (size_t i = 0; i < std::size(fields); ++i) {
    const std::optional<double> v = ToDouble(m[i]);
    if (!v) return std::string(kMetricColumns[23 + i]);
    *fields[i] = *v;
  }
  return "";
}

// Fills `row` from a record's fields; returns the name of the first bad column, or "".
std::string ReadRow(const std::vector<std::string>& f, size_t columns, SweepRow* row) {
  std::optional<size_t> point = ToInt<size_t>(f[0]);
  if (!point) return "point";
  row->point = *point;
  row->values.assign(f.begin() + 1, f.begin() + 1 + static_cast<std::ptrdiff_t>(columns));
  row->variant = f[columns + 1];
  const std::string* m = &f[columns + 2];
  if (!m[0].empty() && !(row->makespan_s = ToDouble(m[0]))) return "makespan_s";
  double* decimals[] = {&row->p50_s,
                        &row->p95_s,
                        &row->p99_s,
                        &row->max_s,
                        &row->gpu_allocation_ratio,
                        &row->gpu_compute_utilization};
  for (size_t i = 0; i < std::size(decimals); ++i) {
    std::optional<double> v = ToDouble(m[1 + i]);
    if (!v) return std::string(kMetricColumns[1 + i]);
    *decimals[i] = *v;
  }
  int64_t* counts[] = {&row->completed, &row->failed, &row->running, &row->pending, &row->deleted};
  for (size_t i = 0; i < std::size(counts); ++i) {
    std::optional<int64_t> v = ToInt<int64_t>(m[7 + i]);
    if (!v) return std::string(kMetricColumns[7 + i]);
    *counts[i] = *v;
  }
  std::optional<double> cost = ToDouble(m[12]);
  if (!cost) return "cost_per_hour";
  row->cost_per_hour = *cost;
  if (std::string bad = ReadDisruptions(m + 13, row); !bad.empty()) return bad;
  if (std::string bad = ReadUnserved(m + 18, row); !bad.empty()) return bad;
  return ReadEnergy(m + 23, row);
}

bool IsSweepHeader(const std::vector<std::string>& fields) {
  if (fields.size() < kMetricCount + 2 || fields[0] != "point") return false;
  const size_t columns = fields.size() - kMetricCount - 2;
  if (fields[columns + 1] != "variant") return false;
  for (size_t i = 0; i < kMetricCount; ++i) {
    if (fields[columns + 2 + i] != kMetricColumns[i]) return false;
  }
  return true;
}

}  // namespace

std::string FormatSweepCsv(const SweepResults& results) {
  std::string out = "point";
  for (const std::string& column : results.columns) out += "," + CsvField(column);
  out += ",variant";
  for (std::string_view name : kMetricColumns) out += "," + std::string(name);
  out += "\n";
  for (const SweepRow& r : results.rows) {
    out += std::to_string(r.point);
    for (const std::string& value : r.values) out += "," + CsvField(value);
    out += "," + CsvField(r.variant) + "," + (r.makespan_s ? Fixed(*r.makespan_s) : "");
    for (double v :
         {r.p50_s, r.p95_s, r.p99_s, r.max_s, r.gpu_allocation_ratio, r.gpu_compute_utilization}) {
      out += "," + Fixed(v);
    }
    for (int64_t n : {r.completed, r.failed, r.running, r.pending, r.deleted}) {
      out += "," + std::to_string(n);
    }
    out += "," + Fixed(r.cost_per_hour) + "," + std::to_string(r.preemptions) + "," +
           Fixed(r.gpu_hours_lost_to_preemption) + "," + std::to_string(r.faults) + "," +
           Fixed(r.gpu_hours_lost_to_faults) + "," + (r.goodput ? Fixed(*r.goodput) : "") + "," +
           std::to_string(r.deleted_unbound) + "," + std::to_string(r.never_bound) + "," +
           Fixed(r.longest_wait_s) + "," + std::to_string(r.pending_peak) + "," +
           Fixed(r.pending_mean);
    for (double v : {r.energy_kwh, r.gpu_kwh, r.allocated_idle_kwh, r.node_kwh, r.energy_cost,
                     r.co2_kg}) {
      out += "," + Fixed(v);
    }
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
  if (!NextRecord(&text, &fields, &csv.header) || !IsSweepHeader(fields)) {
    return error(first_line,
                 "not a sweep CSV: expected the header point,<pointers...>,variant,"
                 "makespan_s,...,co2_kg");
  }
  NormalizeEnd(&csv.header);
  const size_t width = fields.size();
  csv.results.columns.assign(fields.begin() + 1, fields.end() - kMetricCount - 1);
  size_t next_line =
      first_line + static_cast<size_t>(std::count(csv.header.begin(), csv.header.end(), '\n'));
  while (!text.empty()) {
    std::string raw;
    const size_t line = next_line;
    const bool complete = NextRecord(&text, &fields, &raw);
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
