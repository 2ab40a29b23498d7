#include "sim/report/command_reports_json.h"

#include <cmath>

#include "sim/report/document_json.h"

namespace migsim {
namespace {

OrderedJson VariantJson(const VariantFacts& f) {
  OrderedJson nodes = OrderedJson::array();
  for (const NodeGroupFacts& g : f.nodes) {
    nodes.push_back({{"count", g.count},
                     {"type", g.type},
                     {"mig_config", JsonTextOrNull(g.mig_config)},
                     {"advertised", g.advertised}});
  }
  return {{"name", f.name},
          {"policy", f.policy},
          {"seed", f.seed},
          {"horizon_s", JsonOrNull(f.horizon_s)},
          {"nodes", std::move(nodes)},
          {"reconfigurations", JsonStrings(f.reconfigurations)},
          {"provisioner", JsonTextOrNull(f.provisioner)},
          {"node_groups", JsonStrings(f.node_groups)},
          {"shared_claims", JsonStrings(f.shared_claims)},
          {"workloads", JsonStrings(f.workloads)},
          {"warnings", JsonStrings(f.warnings)}};
}

// The keys a sweep's and a plan's validate --json begin with.
OrderedJson ValidatedStudyJson(const ValidatedFile& file, const char* kind,
                               const std::string& scenario) {
  return {{"path", file.path}, {"name", file.name}, {"description", file.description},
          {"valid", true},     {"kind", kind},      {"scenario", scenario}};
}

}  // namespace

std::string FormatValidateJson(const ValidatedFile& file,
                               const std::vector<VariantFacts>& variants) {
  OrderedJson out = OrderedJson::array();
  for (const VariantFacts& v : variants) out.push_back(VariantJson(v));
  return JsonDocument({{"path", file.path},
                       {"name", file.name},
                       {"description", file.description},
                       {"valid", true},
                       {"warnings", JsonStrings(file.warnings)},
                       {"variants", std::move(out)}});
}

std::string FormatValidateSweepJson(const ValidatedFile& file, const SweepFacts& sweep) {
  OrderedJson out = ValidatedStudyJson(file, "sweep", sweep.scenario);
  out["sets"] = JsonStrings(sweep.columns);
  out["points"] = sweep.points;
  out["runs"] = sweep.runs;
  return JsonDocument(out);
}

std::string FormatValidatePlanJson(const ValidatedFile& file, const PlanFacts& plan) {
  OrderedJson configurations = OrderedJson::array();
  for (const PlanConfigurationFacts& c : plan.configurations) {
    configurations.push_back(
        {{"name", c.name}, {"node_type", c.node_type}, {"price_usd_per_h", c.price_per_hour}});
  }
  OrderedJson out = ValidatedStudyJson(file, "plan", plan.scenario);
  out["pool"] = plan.pool;
  out["max_nodes"] = plan.max_nodes;
  out["seeds"] = plan.seeds;
  out["rank_by"] = plan.rank_by;
  out["configurations"] = std::move(configurations);
  return JsonDocument(out);
}

double CalibrationErrorPercent(const CurvePoint& point, double fitted) {
  return (fitted - point.ratio) / point.ratio * 100;
}

bool CalibrationIllDetermined(const CurveFit& fit) {
  return !fit.compute_only && (std::abs(fit.curve.alpha) > 10 || std::abs(fit.curve.beta) > 10);
}

std::string FormatCalibrationJson(const std::vector<CalibrationRow>& points, const CurveFit& fit) {
  OrderedJson rows = OrderedJson::array();
  for (size_t i = 0; i < points.size(); ++i) {
    const CalibrationRow& p = points[i];
    rows.push_back({{"line", p.line},
                    {"gpu_model", p.gpu_model},
                    {"kind", p.kind},
                    {"compute_share", p.point.compute_share},
                    {"memory_share", p.point.memory_share},
                    {"measured", p.point.ratio},
                    {"fitted", fit.fitted[i]},
                    {"error_percent", CalibrationErrorPercent(p.point, fit.fitted[i])}});
  }
  return JsonDocument({{"alpha", fit.curve.alpha},
                       {"beta", fit.curve.beta},
                       {"r_squared", fit.r_squared},
                       {"points_count", points.size()},
                       {"compute_only", fit.compute_only},
                       {"ill_determined", CalibrationIllDetermined(fit)},
                       {"points", std::move(rows)},
                       {"mig_curve", {{"alpha", fit.curve.alpha}, {"beta", fit.curve.beta}}}});
}

std::string FormatImportJson(const ImportReport& report) {
  return JsonDocument({{"scenario_file", report.scenario_file},
                       {"name", report.name},
                       {"warnings", JsonStrings(report.warnings)},
                       {"notices", JsonStrings(report.notices)}});
}

}  // namespace migsim
