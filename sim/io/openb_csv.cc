#include "sim/io/openb_csv.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <memory>
#include <system_error>
#include <utility>

namespace migsim {
namespace {

constexpr int64_t kMaxGpusPerRow = 64;
constexpr std::string_view kNodeHeader = "sn,cpu_milli,memory_mib,gpu,model";
constexpr std::string_view kNodeColumns[] = {"sn", "cpu_milli", "memory_mib", "gpu", "model"};
constexpr std::string_view kPodColumns[] = {"name", "cpu_milli", "memory_mib", "num_gpu",
                                            "gpu_milli"};

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Every comma separates: "a,b," has three fields, the last empty. Fields are trimmed.
// The vector is reused across lines so a file costs one allocation, not one per line.
void SplitCsv(std::string_view line, std::vector<std::string_view>* fields) {
  fields->clear();
  for (size_t comma; (comma = line.find(',')) != std::string_view::npos;) {
    fields->push_back(Trim(line.substr(0, comma)));
    line.remove_prefix(comma + 1);
  }
  fields->push_back(Trim(line));
}

std::string Join(const std::vector<std::string_view>& parts, std::string_view separator) {
  std::string out;
  for (std::string_view part : parts) {
    if (!out.empty()) out += separator;
    out += part;
  }
  return out;
}

// A non-negative decimal integer: digits only, so no sign, no exponent, no fraction.
Status ParseCount(std::string_view column, std::string_view field, int64_t* out) {
  const char* end = field.data() + field.size();
  const auto [stop, error] = std::from_chars(field.data(), end, *out);
  const bool digits = !field.empty() && field.front() >= '0' && field.front() <= '9';
  if (error == std::errc::result_out_of_range && digits && stop == end) {
    return Status::InvalidArgument(std::string(column) + " '" + std::string(field) +
                                   "' is too large");
  }
  if (error != std::errc() || !digits || stop != end) {
    return Status::InvalidArgument(std::string(column) + " '" + std::string(field) +
                                   "' is not a non-negative integer");
  }
  return Status::Ok();
}

Status ParseGpuCount(std::string_view column, std::string_view field, int64_t* out) {
  Status status = ParseCount(column, field, out);
  if (status.ok() && *out > kMaxGpusPerRow) {
    return Status::InvalidArgument(std::string(column) + " " + std::to_string(*out) +
                                   " is not in 0.." + std::to_string(kMaxGpusPerRow));
  }
  return status;
}

// "V100M16||V100M32|" -> "V100M16|V100M32", as pod_csv_to_yaml.py drops empty pieces.
std::string DropEmptyPieces(std::string_view spec) {
  std::string out;
  while (!spec.empty()) {
    const size_t bar = std::min(spec.find('|'), spec.size());
    if (bar > 0) {
      if (!out.empty()) out += '|';
      out += spec.substr(0, bar);
    }
    spec.remove_prefix(std::min(bar + 1, spec.size()));
  }
  return out;
}

// Runs `header` on the first non-blank line and `row` on each later one, after checking
// for quotes and, for rows, that the field count matches the header's. Both callbacks
// return a Status without a location; this loop adds {file, "line N"}.
template <typename Row, typename HeaderFn, typename RowFn>
Result<std::vector<Row>> ParseLines(std::string_view text, const std::string& file,
                                    HeaderFn header, RowFn row) {
  // A UTF-8 byte-order mark, as spreadsheets write, is not part of the header.
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  std::vector<Row> rows;
  rows.reserve(static_cast<size_t>(std::count(text.begin(), text.end(), '\n')));
  std::vector<std::string_view> fields;
  size_t columns = 0;
  int n = 0;
  while (!text.empty()) {
    const size_t newline = std::min(text.find('\n'), text.size());
    std::string_view line = text.substr(0, newline);
    text.remove_prefix(std::min(newline + 1, text.size()));
    ++n;
    if (line.ends_with('\r')) line.remove_suffix(1);
    if (Trim(line).empty()) continue;
    const auto where = [&] { return InputLocation{file, "line " + std::to_string(n)}; };
    if (line.find('"') != std::string_view::npos) {
      return Status::ParseError("quoted fields are not supported (found '\"')", where());
    }
    SplitCsv(line, &fields);
    if (columns == 0) {
      if (Status s = header(fields); !s.ok()) return s.At(where());
      columns = fields.size();
      continue;
    }
    if (fields.size() != columns) {
      return Status::ParseError("expected " + std::to_string(columns) + " fields, got " +
                                    std::to_string(fields.size()),
                                where());
    }
    rows.emplace_back().line = n;
    if (Status s = row(fields, &rows.back()); !s.ok()) return s.At(where());
  }
  if (columns == 0) return Status::ParseError("empty file: no header line", {file, "line 1"});
  return rows;
}

Status CheckNodeHeader(const std::vector<std::string_view>& fields) {
  if (std::equal(fields.begin(), fields.end(), std::begin(kNodeColumns), std::end(kNodeColumns))) {
    return Status::Ok();
  }
  std::vector<std::string_view> missing;
  for (std::string_view column : kNodeColumns) {
    if (std::find(fields.begin(), fields.end(), column) == fields.end()) missing.push_back(column);
  }
  const std::string detail = missing.empty() ? "got '" + Join(fields, ",") + "'"
                                             : "missing columns: " + Join(missing, ", ");
  return Status::ParseError("expected the header '" + std::string(kNodeHeader) + "' (" + detail +
                            ")");
}

Status ReadNode(const std::vector<std::string_view>& f, OpenbNode* node) {
  if (f[0].empty()) return Status::InvalidArgument("sn is empty");
  int64_t gpus = 0;
  Status status = ParseCount("cpu_milli", f[1], &node->cpu_milli);
  if (status.ok()) status = ParseCount("memory_mib", f[2], &node->memory_mib);
  if (status.ok()) status = ParseGpuCount("gpu", f[3], &gpus);
  if (!status.ok()) return status;
  node->name = f[0];
  node->gpus = static_cast<int>(gpus);
  node->model = f[4];
  return Status::Ok();
}

constexpr std::string_view kTimeColumns[] = {"creation_time", "deletion_time",
                                             "scheduled_time"};

// Where each pod column is in a row; an optional column is -1 when the file has none.
struct PodColumns {
  int index[std::size(kPodColumns)] = {-1, -1, -1, -1, -1};
  int gpu_spec = -1;
  int time[std::size(kTimeColumns)] = {-1, -1, -1};
};

Status ReadPodHeader(const std::vector<std::string_view>& fields, PodColumns* columns) {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (std::find(fields.begin(), fields.begin() + i, fields[i]) != fields.begin() + i) {
      return Status::ParseError("column '" + std::string(fields[i]) + "' appears twice");
    }
    for (size_t c = 0; c < std::size(kPodColumns); ++c) {
      if (fields[i] == kPodColumns[c]) columns->index[c] = static_cast<int>(i);
    }
    if (fields[i] == "gpu_spec") columns->gpu_spec = static_cast<int>(i);
    for (size_t c = 0; c < std::size(kTimeColumns); ++c) {
      if (fields[i] == kTimeColumns[c]) columns->time[c] = static_cast<int>(i);
    }
  }
  std::vector<std::string_view> missing;
  for (size_t c = 0; c < std::size(kPodColumns); ++c) {
    if (columns->index[c] < 0) missing.push_back(kPodColumns[c]);
  }
  if (missing.empty()) return Status::Ok();
  return Status::ParseError("missing required columns: " + Join(missing, ", "));
}

// The optional time columns: absent column or empty field = no time.
Status ReadPodTimes(const std::vector<std::string_view>& f, const PodColumns& columns,
                    OpenbPod* pod) {
  std::optional<int64_t>* times[] = {&pod->creation_s, &pod->deletion_s, &pod->scheduled_s};
  for (size_t c = 0; c < std::size(kTimeColumns); ++c) {
    if (columns.time[c] < 0 || f[static_cast<size_t>(columns.time[c])].empty()) continue;
    int64_t value = 0;
    if (Status s = ParseCount(kTimeColumns[c], f[static_cast<size_t>(columns.time[c])], &value);
        !s.ok()) {
      return s;
    }
    *times[c] = value;
  }
  return Status::Ok();
}

Status ReadPod(const std::vector<std::string_view>& f, const PodColumns& columns, OpenbPod* pod) {
  const auto field = [&](int c) { return f[static_cast<size_t>(columns.index[c])]; };
  if (field(0).empty()) return Status::InvalidArgument("name is empty");
  int64_t num_gpu = 0;
  int64_t gpu_milli = 0;
  Status status = ParseCount("cpu_milli", field(1), &pod->cpu_milli);
  if (status.ok()) status = ParseCount("memory_mib", field(2), &pod->memory_mib);
  if (status.ok()) status = ParseGpuCount("num_gpu", field(3), &num_gpu);
  if (status.ok()) status = ParseCount("gpu_milli", field(4), &gpu_milli);
  if (status.ok()) status = ReadPodTimes(f, columns, pod);
  if (!status.ok()) return status;
  pod->name = field(0);
  pod->shape.cpu_milli = pod->cpu_milli;
  pod->shape.num_gpu = static_cast<int32_t>(num_gpu);
  // Protocol §1.2: GPU fields exist only for GPU pods; gpu_milli is clipped to one GPU.
  if (num_gpu > 0) {
    pod->shape.gpu_milli = static_cast<int32_t>(std::min<int64_t>(gpu_milli, kMilliPerGpu));
    if (columns.gpu_spec >= 0) {
      pod->shape.gpu_type = DropEmptyPieces(f[static_cast<size_t>(columns.gpu_spec)]);
    }
  }
  return Status::Ok();
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

// stdio rather than ifstream: a directory opens as a stream but fails here on read.
Result<std::string> ReadFile(const std::string& path) {
  std::unique_ptr<std::FILE, FileCloser> f(std::fopen(path.c_str(), "rb"));
  if (f == nullptr) return Status::IoError("cannot read file", {path, ""});
  std::string text;
  char buffer[1 << 16];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, f.get())) > 0;) text.append(buffer, n);
  if (std::ferror(f.get())) return Status::IoError("cannot read file", {path, ""});
  return text;
}

}  // namespace

Result<std::vector<OpenbNode>> ParseOpenbNodes(std::string_view text, const std::string& file) {
  return ParseLines<OpenbNode>(text, file, CheckNodeHeader, ReadNode);
}

Result<std::vector<OpenbPod>> ParseOpenbPods(std::string_view text, const std::string& file) {
  PodColumns columns;
  return ParseLines<OpenbPod>(
      text, file, [&](const auto& fields) { return ReadPodHeader(fields, &columns); },
      [&](const auto& fields, OpenbPod* pod) { return ReadPod(fields, columns, pod); });
}

Result<std::vector<OpenbNode>> LoadOpenbNodes(const std::string& path) {
  Result<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  return ParseOpenbNodes(text.value(), path);
}

Result<std::vector<OpenbPod>> LoadOpenbPods(const std::string& path) {
  Result<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  return ParseOpenbPods(text.value(), path);
}

}  // namespace migsim
