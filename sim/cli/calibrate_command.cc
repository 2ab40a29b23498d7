#include "sim/cli/calibrate_command.h"

#include <cstdio>
#include <iostream>

#include "sim/cli/failure.h"
#include "sim/io/measurements_csv.h"
#include "sim/perf/mig_curve.h"
#include "sim/report/command_reports_json.h"

namespace migsim {
namespace {

void PrintFit(const std::vector<MeasuredPoint>& points, const CurveFit& fit) {
  std::printf("speed(profile) / speed(full-size instance) = (g/G)^alpha * (m/M)^beta\n");
  std::printf("fitted on %zu points (least squares on log ratios)\n", points.size());
  if (fit.compute_only) {
    std::printf(
        "note: the points cannot tell compute from memory (too few, or equal shares): "
        "beta is set to 0\n");
  } else if (CalibrationIllDetermined(fit)) {
    std::printf(
        "warning: the points barely separate compute from memory, so alpha and beta "
        "are ill-determined (only alpha + beta = %.4f is); a job class accepts each "
        "in [-10, 10]\n",
        fit.curve.alpha + fit.curve.beta);
  }
  std::printf("\n");
  std::printf("alpha  %.4f\nbeta   %.4f\nR^2    %.4f\n\n", fit.curve.alpha, fit.curve.beta,
              fit.r_squared);
  std::printf("%-5s %-16s %-10s %8s %8s %8s %9s\n", "line", "gpu_model", "kind", "g/G", "m/M",
              "measured", "fitted");
  for (size_t i = 0; i < points.size(); ++i) {
    const MeasuredPoint& p = points[i];
    const double error = CalibrationErrorPercent(p.point, fit.fitted[i]);
    std::printf("%-5d %-16s %-10s %8.3f %8.3f %8.4f %9.4f  (%+.1f%%)\n", p.line,
                p.gpu_model.c_str(), p.kind.c_str(), p.point.compute_share, p.point.memory_share,
                p.point.ratio, fit.fitted[i], error);
  }
  std::printf("\nfor a job class: \"mig_curve\": { \"alpha\": %.4f, \"beta\": %.4f }\n",
              fit.curve.alpha, fit.curve.beta);
}

}  // namespace

int CalibrateCommand(const std::string& csv_path, const std::string& catalog_file, bool json) {
  Result<HardwareCatalog> catalog = catalog_file.empty() ? Result<HardwareCatalog>(BuiltinCatalog())
                                                         : LoadUserCatalog(catalog_file);
  if (!catalog.ok()) return Fail(catalog.status(), kBadInput);
  Result<std::vector<MeasuredPoint>> points = LoadMeasurementsFile(csv_path, catalog.value());
  if (!points.ok()) {
    return Fail(points.status(), kBadInput);
  }
  std::vector<CurvePoint> curve_points;
  for (const MeasuredPoint& p : points.value()) curve_points.push_back(p.point);
  Result<CurveFit> fit = FitMigCurve(curve_points);
  if (!fit.ok()) {
    return Fail(fit.status().At({csv_path, ""}), kBadInput);
  }
  if (json) {
    std::vector<CalibrationRow> rows;
    for (const MeasuredPoint& p : points.value()) rows.push_back({p.line, p.gpu_model, p.kind, p.point});
    std::fputs(FormatCalibrationJson(rows, fit.value()).c_str(), stdout);
    return 0;
  }
  PrintFit(points.value(), fit.value());
  return 0;
}

}  // namespace migsim
