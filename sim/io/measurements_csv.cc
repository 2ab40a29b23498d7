#include "sim/io/measurements_csv.h"

#include <cmath>
#include <map>
#include <sstream>

#include "sim/cluster/gpu_model.h"
#include "sim/io/csv_lines.h"
#include "sim/io/input_file.h"

namespace migsim {
namespace {

struct Row {
  int line;
  const GpuModel* model;
  std::string kind;
  double speed;
};

std::string Trim(std::string field) {
  while (!field.empty() && (field.back() == ' ' || field.back() == '\r')) field.pop_back();
  while (!field.empty() && field.front() == ' ') field.erase(0, 1);
  if (field.size() >= 2 && field.front() == '"' && field.back() == '"') {
    field = field.substr(1, field.size() - 2);  // a quoted field (no commas inside here)
  }
  return field;
}

// Every comma separates: "a,b,c," has four fields, the last empty.
std::vector<std::string> SplitCsv(const std::string& line) {
  std::vector<std::string> fields;
  size_t start = 0;
  for (size_t comma; (comma = line.find(',', start)) != std::string::npos; start = comma + 1) {
    fields.push_back(Trim(line.substr(start, comma - start)));
  }
  fields.push_back(Trim(line.substr(start)));
  return fields;
}

Result<Row> ParseRow(const std::vector<std::string>& f, int line, const std::string& file,
                     const HardwareCatalog& catalog) {
  const InputLocation at{file, "line " + std::to_string(line)};
  if (f.size() != 3)
    return Status::ParseError("expected 3 fields, got " + std::to_string(f.size()), at);
  const GpuModel* model = catalog.FindGpuModel(f[0]).get();
  if (model == nullptr) return Status::InvalidArgument("unknown GPU model '" + f[0] + "'", at);
  if (f[1] != "gpu" && model->FindProfile(f[1]) < 0) {
    return Status::InvalidArgument("'" + f[1] + "' is not gpu or a MIG profile of " + model->name,
                                   at);
  }
  double speed = 0;
  size_t used = 0;
  try {
    speed = std::stod(f[2], &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != f[2].size() || !(speed > 0) || !std::isfinite(speed)) {
    return Status::InvalidArgument("speed '" + f[2] + "' is not a positive number", at);
  }
  return Row{line, model, f[1], speed};
}

// The speed of each model's full-size instance: measured, or the whole GPU's x SMs.
Result<std::map<std::string, double>> References(const std::vector<Row>& rows,
                                                 const std::string& file) {
  std::map<std::string, double> full, whole;
  std::map<std::pair<std::string, std::string>, int> reference_line;  // (model, kind) -> line
  for (const Row& r : rows) {
    const int p = r.model->FindProfile(r.kind);
    const bool is_full = p >= 0 && r.model->profiles[p].compute_slices == r.model->compute_slices &&
                         r.model->profiles[p].classic;
    if (r.kind != "gpu" && !is_full) continue;
    // Every speed is divided by the reference: two of them would make the fit depend on
    // which one came last.
    const auto [other, fresh] = reference_line.emplace(std::pair{r.model->name, r.kind}, r.line);
    if (!fresh) {
      return Status::InvalidArgument(r.model->name + " " + r.kind + " is measured on line " +
                                         std::to_string(other->second) +
                                         " already; give one reference speed",
                                     {file, "line " + std::to_string(r.line)});
    }
    (r.kind == "gpu" ? whole : full)[r.model->name] = r.speed;
  }
  for (const Row& r : rows) {
    const std::string& m = r.model->name;
    if (full.count(m)) continue;
    if (!whole.count(m)) {
      return Status::InvalidArgument("no reference for " + m +
                                         ": add its full-size MIG "
                                         "profile or a 'gpu' row",
                                     {file, "line " + std::to_string(r.line)});
    }
    for (const MigProfile& p : r.model->profiles) {
      if (p.classic && p.compute_slices == r.model->compute_slices) {
        full[m] = whole[m] * p.sms / r.model->sms;
      }
    }
  }
  return full;
}

}  // namespace

Result<std::vector<MeasuredPoint>> ParseMeasurements(const std::string& text,
                                                     const std::string& file,
                                                     const HardwareCatalog& catalog) {
  // A UTF-8 byte-order mark, as spreadsheets write, is not part of the header.
  std::stringstream in(text.starts_with("\xEF\xBB\xBF") ? text.substr(3) : text);
  std::string line;
  std::vector<Row> rows;
  bool header = false;
  for (int n = 1; std::getline(in, line); ++n) {
    const std::string_view content =
        TrimCsvField(line.ends_with('\r') ? std::string_view(line).substr(0, line.size() - 1)
                                          : std::string_view(line));
    if (content.empty() || content.front() == '#') continue;  // blank, or a comment
    std::vector<std::string> fields = SplitCsv(line);
    if (!header) {
      if (fields != std::vector<std::string>{"gpu_model", "kind", "speed"}) {
        return Status::ParseError("expected the header 'gpu_model,kind,speed'",
                                  {file, "line " + std::to_string(n)});
      }
      header = true;
      continue;
    }
    Result<Row> row = ParseRow(fields, n, file, catalog);
    if (!row.ok()) return row.status();
    rows.push_back(row.value());
  }
  if (!header) return Status::ParseError("empty file: no header line", {file, "line 1"});
  Result<std::map<std::string, double>> full = References(rows, file);
  if (!full.ok()) return full.status();
  std::vector<MeasuredPoint> points;
  for (const Row& r : rows) {
    const int p = r.model->FindProfile(r.kind);
    if (p < 0) continue;
    const MigProfile& profile = r.model->profiles[p];
    if (profile.classic && profile.compute_slices == r.model->compute_slices) continue;
    const double compute = static_cast<double>(profile.compute_slices) / r.model->compute_slices;
    const double memory = static_cast<double>(profile.memory_slices) / r.model->memory_slices;
    points.push_back({r.line, r.model->name, r.kind, r.speed,
                      CurvePoint{compute, memory, r.speed / full.value().at(r.model->name)}});
  }
  if (points.empty()) {
    return Status::InvalidArgument("no measurement on a profile smaller than the full instance",
                                   {file, ""});
  }
  return points;
}

Result<std::vector<MeasuredPoint>> LoadMeasurementsFile(const std::string& path,
                                                        const HardwareCatalog& catalog) {
  Result<std::string> text = ReadInputFile(path);
  if (!text.ok()) return text.status();
  return ParseMeasurements(text.value(), path, catalog);
}

}  // namespace migsim
