#include "sim/perf/mig_curve.h"

#include <catch2/catch.hpp>
#include <vector>

namespace migsim {
namespace {

std::vector<CurvePoint> PointsFrom(MigCurve truth) {
  // The classic A100 profiles: 1g.5gb, 2g.10gb, 3g.20gb, 4g.20gb.
  std::vector<CurvePoint> points = {
      {1.0 / 7, 1.0 / 8, 0}, {2.0 / 7, 2.0 / 8, 0}, {3.0 / 7, 4.0 / 8, 0}, {4.0 / 7, 4.0 / 8, 0}};
  for (CurvePoint& p : points) p.ratio = truth.Ratio(p.compute_share, p.memory_share);
  return points;
}

TEST_CASE("the curve fit recovers the exponents its points were made with", "[perf]") {
  for (MigCurve truth : {MigCurve{1.0, 0.0}, MigCurve{0.9, 0.3}, MigCurve{0.1, 0.05}}) {
    Result<CurveFit> fit = FitMigCurve(PointsFrom(truth));
    REQUIRE(fit.ok());
    CHECK(fit.value().curve.alpha == Approx(truth.alpha).margin(1e-9));
    CHECK(fit.value().curve.beta == Approx(truth.beta).margin(1e-9));
    CHECK(fit.value().r_squared == Approx(1.0));
    CHECK_FALSE(fit.value().compute_only);
  }
}

TEST_CASE("points whose compute and memory shares are equal fit compute alone", "[perf]") {
  std::vector<CurvePoint> points = {{1.0 / 7, 1.0 / 7, 0.2}, {2.0 / 7, 2.0 / 7, 0.35}};
  Result<CurveFit> fit = FitMigCurve(points);
  REQUIRE(fit.ok());
  CHECK(fit.value().compute_only);
  CHECK(fit.value().curve.beta == 0);
  CHECK(fit.value().fitted.size() == 2);
}

TEST_CASE("MIGPerf's saturated BERT inference scales close to the compute share", "[perf]") {
  // domain.md §6.1: 642 / 1350 / 2245 samples/s on 1g / 2g / 3g vs 4835 on 7g.
  std::vector<CurvePoint> points = {{1.0 / 7, 1.0 / 8, 642.0 / 4835},
                                    {2.0 / 7, 2.0 / 8, 1350.0 / 4835},
                                    {3.0 / 7, 4.0 / 8, 2245.0 / 4835}};
  Result<CurveFit> fit = FitMigCurve(points);
  REQUIRE(fit.ok());
  CHECK(fit.value().curve.alpha + fit.value().curve.beta == Approx(1.0).margin(0.1));
  for (size_t i = 0; i < points.size(); ++i) {
    CHECK(fit.value().fitted[i] == Approx(points[i].ratio).epsilon(0.05));
  }
}

TEST_CASE("a fit needs positive points below the full instance", "[perf]") {
  CHECK_FALSE(FitMigCurve(std::vector<CurvePoint>{{1, 1, 1}}).ok());
  CHECK(FitMigCurve(std::vector<CurvePoint>{{0.5, 0.5, 0}}).status().message() ==
        "point 1: shares and speed must be positive");
}

}  // namespace
}  // namespace migsim

namespace migsim {
namespace {

TEST_CASE("a single point fits compute alone", "[perf]") {
  Result<CurveFit> fit = FitMigCurve(std::vector<CurvePoint>{{4.0 / 7, 4.0 / 8, 0.55}});
  REQUIRE(fit.ok());
  CHECK(fit.value().compute_only);
  CHECK(fit.value().fitted[0] == Approx(0.55));
}

}  // namespace
}  // namespace migsim
