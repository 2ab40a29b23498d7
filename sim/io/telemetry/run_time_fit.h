#pragma once
// The goodness of fit `migsim import` shows beside observed run times: a log-normal fitted
// by maximum likelihood and its one-sample Kolmogorov-Smirnov statistic. The scenario
// replays the observed times themselves; the fit tells the user whether a log-normal
// `run_time` (an Arrivals workload's) would stand for them.

#include <optional>
#include <vector>

namespace migsim::telemetry {

struct LogNormalFit {
  double mu = 0, sigma = 0;  // of ln(run time)
  // sup |F_n(x) - F(x)| over the samples: the KS statistic D (0 = a perfect fit).
  double ks_statistic = 0;
  int samples = 0;
};

// The fit of `run_s` (each > 0); nullopt for fewer than two samples or all equal (sigma 0).
std::optional<LogNormalFit> FitLogNormal(std::vector<double> run_s);

}  // namespace migsim::telemetry
