#include "sim/io/telemetry/run_time_fit.h"

#include <algorithm>
#include <cmath>

namespace migsim::telemetry {

std::optional<LogNormalFit> FitLogNormal(std::vector<double> run_s) {
  if (run_s.size() < 2) return std::nullopt;
  std::sort(run_s.begin(), run_s.end());
  const double n = static_cast<double>(run_s.size());
  LogNormalFit fit;
  fit.samples = static_cast<int>(run_s.size());
  for (double x : run_s) fit.mu += std::log(x) / n;
  for (double x : run_s) fit.sigma += (std::log(x) - fit.mu) * (std::log(x) - fit.mu) / n;
  fit.sigma = std::sqrt(fit.sigma);  // the maximum-likelihood estimate (divides by n)
  if (!(fit.sigma > 0)) return std::nullopt;
  for (size_t i = 0; i < run_s.size(); ++i) {
    const double cdf = 0.5 * std::erfc(-(std::log(run_s[i]) - fit.mu) / (fit.sigma * std::sqrt(2.0)));
    const double below = static_cast<double>(i) / n, above = static_cast<double>(i + 1) / n;
    fit.ks_statistic = std::max({fit.ks_statistic, cdf - below, above - cdf});
  }
  return fit;
}

}  // namespace migsim::telemetry
