#pragma once
// A quantile sketch with a guaranteed relative error: what percentiles of more values
// than a run keeps (sim/metrics/latency_summary.h) are estimated from.
//
// Positive values go to logarithmic buckets: bucket i holds (gamma^(i-1), gamma^i], with
// gamma = (1 + alpha) / (1 - alpha), and is read back as 2 gamma^i / (gamma + 1), which is
// within a relative error alpha of every value of the bucket (at both ends the error is
// (gamma - 1) / (gamma + 1) = alpha). Negative values are bucketed by magnitude the same
// way; zeros are counted exactly. So the nearest-rank percentile the sketch returns is
// within alpha (relative) of the exact one, whatever the values and their number, in
// memory that grows with the logarithm of the values' range, not with their number
// (about 2,300 buckets from a microsecond to a month at alpha = 0.5 %).

#include <cstdint>
#include <vector>

namespace migsim {

class QuantileSketch {
 public:
  // REQUIRES: 0 < alpha < 1.
  explicit QuantileSketch(double alpha);

  void Add(double v);
  int64_t count() const { return count_; }
  double alpha() const { return alpha_; }
  // The nearest-rank percentile p (in (0, 1]: the value at rank ceil(p * n)), within
  // alpha of the exact one, and never outside [min, max] of the values added.
  // REQUIRES: count() > 0.
  double Quantile(double p) const;

 private:
  // Counts of one sign's magnitudes, by bucket index from `first`.
  struct Buckets {
    int32_t first = 0;
    std::vector<int64_t> counts;
    void Add(int32_t index);
  };
  int32_t IndexOf(double magnitude) const;
  double ValueOf(int32_t index) const;  // the bucket's estimate, a magnitude

  double alpha_;
  double gamma_;
  double inv_log_gamma_;
  Buckets positive_, negative_;
  int64_t zeros_ = 0;
  int64_t count_ = 0;
  double min_ = 0, max_ = 0;
};

}  // namespace migsim
