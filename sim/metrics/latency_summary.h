#pragma once
// A streaming summary of a run's per-pod (or per-job) values: count, mean, max and the
// nearest-rank percentiles of LatencyStats, in memory that does not grow with the values
// beyond a limit.
//
// Up to `exact_limit` values it keeps them, and Finish gives exactly what ComputeLatency
// gives for them (so every run of up to that many pods reports what it always did, bit
// for bit). Past the limit it moves to a QuantileSketch: count, mean and max stay exact
// (the mean up to the rounding of a sum taken in another order), the percentiles are
// within the sketch's relative error, which Finish reports (LatencyStats::relative_error).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "sim/metrics/quantile_sketch.h"
#include "sim/metrics/run_metrics.h"

namespace migsim {

// The default limit of exact percentiles (values kept), and the sketch's relative error
// past it: README "Output", "Percentiles of large runs".
inline constexpr size_t kExactValues = size_t{1} << 20;  // 1,048,576
inline constexpr double kSketchRelativeError = 0.005;

class LatencySummary {
 public:
  explicit LatencySummary(size_t exact_limit = kExactValues,
                          double relative_error = kSketchRelativeError)
      : exact_limit_(exact_limit), relative_error_(relative_error) {}

  void Add(double v);
  int64_t count() const { return count_; }
  // The statistics of every value added; the summary is spent.
  LatencyStats Finish();

 private:
  void MoveToSketch();

  size_t exact_limit_;
  double relative_error_;
  std::vector<double> values_;  // while exact
  std::optional<QuantileSketch> sketch_;
  int64_t count_ = 0;
  double sum_ = 0, max_ = 0;  // once sketched
};

}  // namespace migsim
