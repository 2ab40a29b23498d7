#include "sim/metrics/quantile_sketch.h"

#include <algorithm>
#include <cmath>

#include "sim/core/check.h"

namespace migsim {

QuantileSketch::QuantileSketch(double alpha)
    : alpha_(alpha),
      gamma_((1 + alpha) / (1 - alpha)),
      inv_log_gamma_(1 / std::log((1 + alpha) / (1 - alpha))) {
  MIGSIM_CHECK(alpha > 0 && alpha < 1, "a sketch's relative error is in (0, 1)");
}

// ceil(log_gamma(m)): the bucket whose (gamma^(i-1), gamma^i] holds m (up to the rounding
// of the logarithm at a bucket's very edge, a relative 1e-15 beyond alpha).
int32_t QuantileSketch::IndexOf(double magnitude) const {
  return static_cast<int32_t>(std::ceil(std::log(magnitude) * inv_log_gamma_));
}

double QuantileSketch::ValueOf(int32_t index) const {
  return 2 * std::pow(gamma_, index) / (gamma_ + 1);
}

void QuantileSketch::Buckets::Add(int32_t index) {
  if (counts.empty()) {
    first = index;
  } else if (index < first) {
    counts.insert(counts.begin(), static_cast<size_t>(first - index), 0);
    first = index;
  }
  const auto at = static_cast<size_t>(index - first);
  if (at >= counts.size()) counts.resize(at + 1, 0);
  ++counts[at];
}

void QuantileSketch::Add(double v) {
  MIGSIM_CHECK(std::isfinite(v), "a sketch takes finite values");
  min_ = count_ == 0 ? v : std::min(min_, v);
  max_ = count_ == 0 ? v : std::max(max_, v);
  ++count_;
  if (v > 0) {
    positive_.Add(IndexOf(v));
  } else if (v < 0) {
    negative_.Add(IndexOf(-v));
  } else {
    ++zeros_;
  }
}

double QuantileSketch::Quantile(double p) const {
  MIGSIM_CHECK(count_ > 0, "a quantile of no values");
  const auto rank = std::clamp<int64_t>(
      static_cast<int64_t>(std::ceil(p * static_cast<double>(count_))), 1, count_);
  const auto clamp = [&](double v) { return std::clamp(v, min_, max_); };
  int64_t seen = 0;
  // Negative values in ascending order: the largest magnitudes first.
  for (size_t k = negative_.counts.size(); k-- > 0;) {
    seen += negative_.counts[k];
    if (seen >= rank) return clamp(-ValueOf(negative_.first + static_cast<int32_t>(k)));
  }
  seen += zeros_;
  if (seen >= rank) return clamp(0);
  for (size_t k = 0; k < positive_.counts.size(); ++k) {
    seen += positive_.counts[k];
    if (seen >= rank) return clamp(ValueOf(positive_.first + static_cast<int32_t>(k)));
  }
  return max_;
}

}  // namespace migsim
