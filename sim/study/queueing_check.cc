#include "sim/study/queueing_check.h"

#include <algorithm>
#include <numeric>

#include "sim/metrics/queueing_theory.h"

namespace migsim {

std::vector<double> ExactMeanWaits(const QueueingTheorySpec& spec) {
  const double lambda = std::accumulate(spec.lambdas.begin(), spec.lambdas.end(), 0.0);
  switch (spec.model) {
    case QueueingModel::kErlangC:
      return {MmcMeanWait(spec.servers, lambda, spec.mean_s)};
    case QueueingModel::kCobham:
      return CobhamMeanWaits(spec.servers, spec.lambdas, spec.mean_s);
    case QueueingModel::kPollaczekKhinchine:
      return {PollaczekKhinchineWait(lambda, spec.mean_s, spec.second_moment_s2)};
    case QueueingModel::kMg1Sjf:
      return {Mg1SjfMeanWaitExponential(lambda, spec.mean_s)};
  }
  return {};
}

namespace {

double SimulatedMean(const std::string& klass, const RunMetrics& metrics) {
  if (klass == "all") return metrics.queueing.mean_s;
  const auto& classes = metrics.queueing_by_priority_class;
  auto it = std::find_if(classes.begin(), classes.end(),
                         [&](const PriorityClassLatency& c) { return c.name == klass; });
  return it == classes.end() ? 0 : it->queueing.mean_s;
}

}  // namespace

std::vector<TheoryComparison> CompareWithTheory(const QueueingTheorySpec& spec,
                                                const RunMetrics& metrics) {
  const std::vector<double> exact = ExactMeanWaits(spec);
  const double lambda = std::accumulate(spec.lambdas.begin(), spec.lambdas.end(), 0.0);
  std::vector<TheoryComparison> rows;
  for (size_t k = 0; k < spec.classes.size(); ++k) {
    rows.push_back({.model = std::string(QueueingModelName(spec.model)),
                    .klass = spec.classes[k],
                    .simulated_s = SimulatedMean(spec.classes[k], metrics),
                    .exact_s = exact[k],
                    .utilisation = lambda * spec.mean_s / spec.servers,
                    .servers = spec.servers});
  }
  return rows;
}

}  // namespace migsim
