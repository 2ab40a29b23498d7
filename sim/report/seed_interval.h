#pragma once
// Intervals over seeds: the mean of a metric over n runs that differ only in their seed,
// and its 95 % confidence interval, mean +- t(0.975, n-1) x s / sqrt(n) (Student's t with
// n - 1 degrees of freedom; s the sample standard deviation). README "Seed intervals".

#include <cstddef>
#include <string>
#include <vector>

namespace migsim {

// The two-sided 95 % quantile of Student's t, t(0.975, df), for df >= 1: exact (to six
// decimals) from a table for df <= 30, the Cornish-Fisher expansion beyond.
double StudentT975(size_t df);

struct SeedInterval {
  size_t n = 0;  // values (seeds)
  double mean = 0;
  double half_width = 0;  // t(0.975, n-1) x s / sqrt(n); 0 when n < 2
  double min = 0, max = 0;
  double low() const { return mean - half_width; }
  double high() const { return mean + half_width; }
};

// The interval over `values`; n = 0 (and zeros) when empty.
SeedInterval ComputeSeedInterval(const std::vector<double>& values);

// "12.3 ±0.4" with `decimals` places: compact, for a table cell; the mean alone when n < 2.
std::string FormatSeedInterval(const SeedInterval& interval, int decimals);

}  // namespace migsim
