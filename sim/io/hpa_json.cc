// Demand that follows the clock (README "Demand that follows the clock"; format in
// scenarios/README.md, "Deployments"): a Deployment's `hpa` with its load series, and
// `scale` given as a CSV of replicas over time.

#include <algorithm>
#include <cmath>

#include "sim/io/csv_lines.h"
#include "sim/io/input_file.h"
#include "sim/io/input_limits.h"
#include "sim/io/pod_list_csv.h"
#include "sim/io/scenario_sections_json.h"
#include "workloads/hpa.h"

namespace migsim::io {
namespace {

constexpr double kMaxLoad = 1e12;  // requests per second

// Two numeric columns of a CSV, by name: (time in s, value) rows; an error names the line.
Result<std::vector<std::pair<double, double>>> ReadSeriesCsv(const std::string& path,
                                                            const std::string& value_column) {
  Result<std::string> text = ReadInputFile(path);
  if (!text.ok()) return text.status();
  struct Row {
    int line = 0;
    double at = 0, value = 0;
  };
  size_t at_index = 0, value_index = 0;
  Result<std::vector<Row>> rows = ParseCsvLines<Row>(
      text.value(), path,
      [&](const std::vector<std::string_view>& header) {
        const auto at = std::find(header.begin(), header.end(), "at_s");
        const auto value = std::find(header.begin(), header.end(), value_column);
        if (at == header.end() || value == header.end()) {
          return Status::ParseError("needs the columns at_s and " + value_column +
                                    " (columns: " + JoinFields(header, ", ") + ")");
        }
        at_index = static_cast<size_t>(at - header.begin());
        value_index = static_cast<size_t>(value - header.begin());
        return Status::Ok();
      },
      [&](const std::vector<std::string_view>& fields, Row* row) {
        Status at = ParseCsvSeconds("at_s", fields[at_index], kMaxSeconds, &row->at);
        if (!at.ok()) return at;
        return ParseCsvSeconds(value_column, fields[value_index], kMaxLoad, &row->value);
      });
  if (!rows.ok()) return rows.status();
  std::vector<std::pair<double, double>> series;
  for (const Row& row : rows.value()) {
    if (!series.empty() && row.at < series.back().first) {
      return Status::ParseError("at_s goes back in time (" + FormatNumber(row.at) + " after " +
                                    FormatNumber(series.back().first) + ")",
                                {path, "line " + std::to_string(row.line)});
    }
    series.emplace_back(row.at, row.value);
  }
  if (series.empty()) return Status::ParseError("no rows", {path, ""});
  return series;
}

// The rows of the CSV named at `ref` (a string); nullopt after reporting a problem.
std::optional<std::vector<std::pair<double, double>>> LoadSeriesCsv(LoadContext* ctx,
                                                                    const JsonRef& ref,
                                                                    const std::string& column) {
  const std::optional<std::string> file = ReadString(ctx, ref);
  if (!file || !ctx->MayReadNamedFile(ref.pointer())) return std::nullopt;
  if (file->empty()) {
    ctx->Fail(ref.pointer(), "must not be empty");
    return std::nullopt;
  }
  Result<std::vector<std::pair<double, double>>> rows =
      ReadSeriesCsv(ctx->ResolvePath(*file), column);
  if (!rows.ok()) {
    ctx->Fail(ref.pointer(), rows.status().ToString());
    return std::nullopt;
  }
  return std::move(rows).value();
}

std::optional<LoadSeries> LoadPoints(LoadContext* ctx, const JsonRef& ref) {
  if (!ExpectArray(ctx, ref)) return std::nullopt;
  if (ref.value().empty()) {
    ctx->Fail(ref.pointer(), "needs at least one point");
    return std::nullopt;
  }
  std::vector<LoadPoint> points;
  for (size_t i = 0; i < ref.value().size() && ctx->ok(); ++i) {
    ObjectReader r(ctx, ref.Element(i), {"at_s", "value"});
    r.Require("at_s");
    r.Require("value");
    const LoadPoint p{.at = r.Seconds("at_s", SimTime::Zero()),
                      .value = r.Number("value", 0, 0, kMaxLoad)};
    if (ctx->ok() && !points.empty() && p.at < points.back().at) {
      ctx->Fail(r.Field("at_s").pointer(), "must be >= the previous point's at_s (" +
                                               FormatNumber(points.back().at.seconds()) + ")");
    }
    points.push_back(p);
  }
  if (!ctx->ok()) return std::nullopt;
  return LoadSeries::Points(std::move(points));
}

std::optional<LoadSeries> LoadDiurnal(LoadContext* ctx, const JsonRef& ref) {
  ObjectReader r(ctx, ref, {"mean", "amplitude", "peak_hour", "weekend_factor"});
  if (!r.valid()) return std::nullopt;
  r.Require("mean");
  const DiurnalLoad cycle{.mean = r.Number("mean", 0, 0, kMaxLoad),
                          .amplitude = r.Number("amplitude", 0, 0, 1),
                          .peak_hour = r.Number("peak_hour", 12, 0, 24),
                          .weekend_factor = r.Number("weekend_factor", 1, 0, 1000)};
  if (!ctx->ok()) return std::nullopt;
  return LoadSeries::Diurnal(cycle);
}

// `load`: exactly one of points, csv (columns at_s, value) and diurnal.
std::optional<LoadSeries> LoadLoad(LoadContext* ctx, const JsonRef& ref) {
  ObjectReader r(ctx, ref, {"points", "csv", "diurnal"});
  if (!r.valid()) return std::nullopt;
  const int given = r.Has("points") + r.Has("csv") + r.Has("diurnal");
  if (given != 1) {
    ctx->Fail(ref.pointer(), "give exactly one of points, csv and diurnal");
    return std::nullopt;
  }
  if (r.Has("points")) return LoadPoints(ctx, r.Field("points"));
  if (r.Has("diurnal")) return LoadDiurnal(ctx, r.Field("diurnal"));
  const auto rows = LoadSeriesCsv(ctx, r.Field("csv"), "value");
  if (!rows) return std::nullopt;
  std::vector<LoadPoint> points;
  for (const auto& [at, value] : *rows) points.push_back({SimTime::Seconds(at), value});
  return LoadSeries::Points(std::move(points));
}

}  // namespace

void LoadHpa(LoadContext* ctx, const JsonRef& ref, SimTime horizon, DeploymentSpec* spec) {
  ObjectReader r(ctx, ref,
                 {"min_replicas", "max_replicas", "target_per_replica", "load", "sync_period_s",
                  "tolerance", "scale_up_stabilization_s", "scale_down_stabilization_s"});
  if (!r.valid()) return;
  HpaSpec hpa;
  const int64_t most = CurrentInputLimits().pods_per_field;
  r.Require("max_replicas");
  hpa.max_replicas = static_cast<int>(r.Int("max_replicas", 1, 1, most));
  hpa.min_replicas = static_cast<int>(r.Int("min_replicas", 1, 1, most));
  if (ctx->ok() && hpa.min_replicas > hpa.max_replicas) {
    ctx->Fail(r.Field("min_replicas").pointer(),
              "must be at most max_replicas (" + std::to_string(hpa.max_replicas) + ")");
  }
  r.Require("target_per_replica");
  hpa.target_per_replica = r.Number("target_per_replica", 1, 0, kMaxLoad);
  if (ctx->ok() && hpa.target_per_replica <= 0) {
    ctx->Fail(r.Field("target_per_replica").pointer(), "must be > 0");
  }
  hpa.sync_period = r.Seconds("sync_period_s", hpa.sync_period);
  if (ctx->ok() && hpa.sync_period <= SimTime::Zero()) {
    ctx->Fail(r.Field("sync_period_s").pointer(), "must be greater than 0");
  }
  hpa.tolerance = r.Number("tolerance", hpa.tolerance, 0, 1);
  hpa.scale_up_window = r.Seconds("scale_up_stabilization_s", hpa.scale_up_window);
  hpa.scale_down_window = r.Seconds("scale_down_stabilization_s", hpa.scale_down_window);
  if (r.Require("load") && ctx->ok()) {
    if (std::optional<LoadSeries> load = LoadLoad(ctx, r.Field("load"))) hpa.load = *load;
  }
  if (!ctx->ok() || horizon == SimTime::Max()) return;  // the Deployment check reports it
  // Each sync is a decision computed now: bounded like the pods a field may ask for.
  const double syncs = (horizon - spec->at).seconds() / hpa.sync_period.seconds();
  if (syncs > static_cast<double>(CurrentInputLimits().pods_per_scenario)) {
    ctx->Fail(r.Field(r.Has("sync_period_s") ? "sync_period_s" : "load").pointer(),
              "the HPA would sync " + FormatNumber(std::floor(syncs)) +
                  " times before the horizon; at most " +
                  std::to_string(CurrentInputLimits().pods_per_scenario) +
                  ": raise sync_period_s or shorten horizon_s");
    return;
  }
  spec->scale = HpaScaleEvents(hpa, spec->replicas, spec->at, horizon);
  spec->load = hpa.load;
}

std::vector<ScaleEvent> LoadScaleCsv(LoadContext* ctx, const JsonRef& ref, SimTime start) {
  std::vector<ScaleEvent> events;
  const auto rows = LoadSeriesCsv(ctx, ref, "replicas");
  if (!rows) return events;
  const int64_t most = CurrentInputLimits().pods_per_field;
  for (const auto& [at, replicas] : *rows) {
    if (replicas != std::floor(replicas) || replicas > static_cast<double>(most)) {
      ctx->Fail(ref.pointer(), "replicas " + FormatNumber(replicas) +
                                   " is not an integer in 0.." + std::to_string(most));
      return {};
    }
    if (SimTime::Seconds(at) < start) {
      ctx->Fail(ref.pointer(), "at_s " + FormatNumber(at) + " is before the Deployment's at_s (" +
                                   FormatNumber(start.seconds()) + ")");
      return {};
    }
    events.push_back({.at = SimTime::Seconds(at), .replicas = static_cast<int>(replicas)});
  }
  return events;
}

}  // namespace migsim::io
