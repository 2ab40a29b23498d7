#include "sim/io/openb_csv.h"

#include <algorithm>
#include <charconv>
#include <system_error>
#include <utility>

#include "sim/io/csv_lines.h"
#include "sim/io/input_file.h"

namespace migsim {
namespace {

constexpr int64_t kMaxGpusPerRow = 64;
// Far above any machine or pod (the openb maxima are 128 cores and 1 TiB), low enough
// that sums over a cluster cannot overflow.
constexpr int64_t kMaxCpuMilli = 100'000'000;     // 100,000 cores
constexpr int64_t kMaxMemoryMib = 1'073'741'824;  // 1 PiB
constexpr std::string_view kNodeHeader = "sn,cpu_milli,memory_mib,gpu,model";
constexpr std::string_view kNodeColumns[] = {"sn", "cpu_milli", "memory_mib", "gpu", "model"};
constexpr std::string_view kPodColumns[] = {"name", "cpu_milli", "memory_mib", "num_gpu",
                                            "gpu_milli"};

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

// ParseCount, at most `max`.
Status ParseBounded(std::string_view column, std::string_view field, int64_t max, int64_t* out) {
  Status status = ParseCount(column, field, out);
  if (status.ok() && *out > max) {
    return Status::InvalidArgument(std::string(column) + " " + std::to_string(*out) +
                                   " is not in 0.." + std::to_string(max));
  }
  return status;
}

Status ParseGpuCount(std::string_view column, std::string_view field, int64_t* out) {
  return ParseBounded(column, field, kMaxGpusPerRow, out);
}

// "V100M16||V100M32|" -> "V100M16|V100M32", as pod_csv_to_yaml.py drops empty pieces;
// spaces around a piece go too ("V100M16 | T4"): no model name has one.
std::string DropEmptyPieces(std::string_view spec) {
  std::string out;
  while (!spec.empty()) {
    const size_t bar = std::min(spec.find('|'), spec.size());
    if (const std::string_view piece = TrimCsvField(spec.substr(0, bar)); !piece.empty()) {
      if (!out.empty()) out += '|';
      out += piece;
    }
    spec.remove_prefix(std::min(bar + 1, spec.size()));
  }
  return out;
}

Status CheckNodeHeader(const std::vector<std::string_view>& fields) {
  if (std::equal(fields.begin(), fields.end(), std::begin(kNodeColumns), std::end(kNodeColumns))) {
    return Status::Ok();
  }
  std::vector<std::string_view> missing;
  for (std::string_view column : kNodeColumns) {
    if (std::find(fields.begin(), fields.end(), column) == fields.end()) missing.push_back(column);
  }
  const std::string detail = missing.empty() ? "got '" + JoinFields(fields, ",") + "'"
                                             : "missing columns: " + JoinFields(missing, ", ");
  return Status::ParseError("expected the header '" + std::string(kNodeHeader) + "' (" + detail +
                            ")");
}

Status ReadNode(const std::vector<std::string_view>& f, OpenbNode* node) {
  if (f[0].empty()) return Status::InvalidArgument("sn is empty");
  int64_t gpus = 0;
  Status status = ParseBounded("cpu_milli", f[1], kMaxCpuMilli, &node->cpu_milli);
  if (status.ok()) status = ParseBounded("memory_mib", f[2], kMaxMemoryMib, &node->memory_mib);
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
  return Status::ParseError("missing required columns: " + JoinFields(missing, ", "));
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
  Status status = ParseBounded("cpu_milli", field(1), kMaxCpuMilli, &pod->cpu_milli);
  if (status.ok()) status = ParseBounded("memory_mib", field(2), kMaxMemoryMib, &pod->memory_mib);
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

}  // namespace

Result<std::vector<OpenbNode>> ParseOpenbNodes(std::string_view text, const std::string& file) {
  return ParseCsvLines<OpenbNode>(text, file, CheckNodeHeader, ReadNode);
}

Result<std::vector<OpenbPod>> ParseOpenbPods(std::string_view text, const std::string& file) {
  PodColumns columns;
  return ParseCsvLines<OpenbPod>(
      text, file, [&](const auto& fields) { return ReadPodHeader(fields, &columns); },
      [&](const auto& fields, OpenbPod* pod) { return ReadPod(fields, columns, pod); });
}

Result<std::vector<OpenbNode>> LoadOpenbNodes(const std::string& path) {
  Result<std::string> text = ReadInputFile(path);
  if (!text.ok()) return text.status();
  return ParseOpenbNodes(text.value(), path);
}

Result<std::vector<OpenbPod>> LoadOpenbPods(const std::string& path) {
  Result<std::string> text = ReadInputFile(path);
  if (!text.ok()) return text.status();
  return ParseOpenbPods(text.value(), path);
}

}  // namespace migsim
