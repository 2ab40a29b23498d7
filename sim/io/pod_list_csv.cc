#include "sim/io/pod_list_csv.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <system_error>

#include "sim/core/sim_time.h"
#include "sim/io/csv_lines.h"
#include "sim/io/input_file.h"

namespace migsim {
namespace {

// The columns a pod list may have; the first two are required.
constexpr std::array<std::string_view, 4> kColumns = {"at_s", "template", "run_s", "name"};

struct Columns {
  std::array<int, kColumns.size()> index = {-1, -1, -1, -1};
};

Status ReadHeader(const std::vector<std::string_view>& fields, Columns* columns) {
  for (size_t i = 0; i < fields.size(); ++i) {
    const auto known = std::find(kColumns.begin(), kColumns.end(), fields[i]);
    if (known == kColumns.end()) {
      return Status::ParseError("unknown column '" + std::string(fields[i]) +
                                "' (expected: at_s, template, run_s, name)");
    }
    int& slot = columns->index[static_cast<size_t>(known - kColumns.begin())];
    if (slot >= 0)
      return Status::ParseError("column '" + std::string(fields[i]) + "' appears twice");
    slot = static_cast<int>(i);
  }
  std::vector<std::string_view> missing;
  for (size_t c = 0; c < 2; ++c) {
    if (columns->index[c] < 0) missing.push_back(kColumns[c]);
  }
  if (missing.empty()) return Status::Ok();
  return Status::ParseError("missing required columns: " + JoinFields(missing, ", "));
}

Status ReadRow(const std::vector<std::string_view>& f, const Columns& columns, PodListRow* row) {
  const auto field = [&](size_t c) {
    return columns.index[c] < 0 ? std::string_view() : f[static_cast<size_t>(columns.index[c])];
  };
  if (Status s = ParseCsvSeconds("at_s", field(0), kMaxInputSeconds, &row->at_s); !s.ok()) return s;
  if (field(1).empty()) return Status::InvalidArgument("template is empty");
  row->tmpl = field(1);
  if (!field(2).empty()) {
    double run = 0;
    if (Status s = ParseCsvSeconds("run_s", field(2), kMaxInputSeconds, &run); !s.ok()) return s;
    row->run_s = run;
  }
  row->name = field(3);
  return Status::Ok();
}

}  // namespace

Status ParseCsvSeconds(std::string_view column, std::string_view field, double max_seconds,
                       double* out) {
  const char* end = field.data() + field.size();
  const auto [stop, error] = std::from_chars(field.data(), end, *out);
  if (field.empty() || error != std::errc() || stop != end || !std::isfinite(*out) || *out < 0 ||
      *out > max_seconds) {
    char range[64];
    std::snprintf(range, sizeof range, "%.0f", max_seconds);
    return Status::InvalidArgument(std::string(column) + " '" + std::string(field) +
                                   "' is not a number of seconds in 0.." + range);
  }
  return Status::Ok();
}

Result<std::vector<PodListRow>> ParsePodList(std::string_view text, const std::string& file) {
  Columns columns;
  return ParseCsvLines<PodListRow>(
      text, file, [&](const auto& fields) { return ReadHeader(fields, &columns); },
      [&](const auto& fields, PodListRow* row) { return ReadRow(fields, columns, row); });
}

Result<std::vector<PodListRow>> LoadPodList(const std::string& path) {
  Result<std::string> text = ReadInputFile(path);
  if (!text.ok()) return text.status();
  return ParsePodList(text.value(), path);
}

}  // namespace migsim
