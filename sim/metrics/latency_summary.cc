#include "sim/metrics/latency_summary.h"

#include <algorithm>

namespace migsim {

void LatencySummary::Add(double v) {
  ++count_;
  if (!sketch_) {
    values_.push_back(v);
    if (values_.size() > exact_limit_) MoveToSketch();
    return;
  }
  sketch_->Add(v);
  sum_ += v;
  max_ = std::max(max_, v);
}

void LatencySummary::MoveToSketch() {
  sketch_.emplace(relative_error_);
  max_ = values_.front();
  for (double v : values_) {
    sketch_->Add(v);
    sum_ += v;
    max_ = std::max(max_, v);
  }
  std::vector<double>().swap(values_);
}

LatencyStats LatencySummary::Finish() {
  if (!sketch_) return ComputeLatency(std::move(values_));
  LatencyStats s;
  s.count = count_;
  s.mean_s = sum_ / static_cast<double>(count_);
  s.p50_s = sketch_->Quantile(0.50);
  s.p95_s = sketch_->Quantile(0.95);
  s.p99_s = sketch_->Quantile(0.99);
  s.max_s = max_;
  s.relative_error = relative_error_;
  return s;
}

}  // namespace migsim
