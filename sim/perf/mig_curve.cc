#include "sim/perf/mig_curve.h"

#include <Eigen/Dense>
#include <cmath>

namespace migsim {

double MigCurve::Ratio(double compute_share, double memory_share) const {
  return std::pow(compute_share, alpha) * std::pow(memory_share, beta);
}

namespace {

Status CheckPoints(std::span<const CurvePoint> points) {
  bool below_full = false;
  for (size_t i = 0; i < points.size(); ++i) {
    const CurvePoint& p = points[i];
    if (p.ratio <= 0 || p.compute_share <= 0 || p.memory_share <= 0) {
      return Status::InvalidArgument("point " + std::to_string(i + 1) +
                                     ": shares and speed must be positive");
    }
    below_full = below_full || p.compute_share < 1 || p.memory_share < 1;
  }
  if (!below_full) {
    return Status::InvalidArgument("no point on a profile smaller than the full instance");
  }
  return Status::Ok();
}

double RSquared(const Eigen::VectorXd& y, const Eigen::VectorXd& predicted) {
  const double mean = y.mean();
  const double total = (y.array() - mean).square().sum();
  const double residual = (y - predicted).squaredNorm();
  return total > 0 ? 1.0 - residual / total : 1.0;
}

}  // namespace

Result<CurveFit> FitMigCurve(std::span<const CurvePoint> points) {
  if (Status s = CheckPoints(points); !s.ok()) return s;
  const Eigen::Index n = static_cast<Eigen::Index>(points.size());
  Eigen::MatrixXd x(n, 2);
  Eigen::VectorXd y(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    x(i, 0) = std::log(points[i].compute_share);
    x(i, 1) = std::log(points[i].memory_share);
    y(i) = std::log(points[i].ratio);
  }
  CurveFit fit;
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(x);
  if (points.size() < 2 || qr.rank() < 2) {
    // One point, or every point has compute share == memory share (1g.5gb, 2g.10gb,
    // ...): only their product is identified, so it is all put on compute.
    fit.compute_only = true;
    const Eigen::VectorXd c = x.col(0);
    fit.curve.alpha = c.dot(y) / c.squaredNorm();
    fit.curve.beta = 0;
  } else {
    const Eigen::Vector2d coef = qr.solve(y);
    fit.curve.alpha = coef(0);
    fit.curve.beta = coef(1);
  }
  const Eigen::VectorXd predicted = x * Eigen::Vector2d(fit.curve.alpha, fit.curve.beta);
  fit.r_squared = RSquared(y, predicted);
  for (Eigen::Index i = 0; i < n; ++i) fit.fitted.push_back(std::exp(predicted(i)));
  return fit;
}

}  // namespace migsim
