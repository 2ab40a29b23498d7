#pragma once
// A scenario's `queueing_theory`: which exact formula its simulation is to be compared with,
// and the formula's inputs, derived from the scenario (its cluster and an Arrivals
// workload) by the loader, which also checks that the scenario is the model the formula
// assumes.

#include <string>
#include <string_view>
#include <vector>

namespace migsim {

enum class QueueingModel {
  kErlangC,             // M/M/c FIFO
  kCobham,              // M/M/c non-preemptive priority, equal service rates
  kPollaczekKhinchine,  // M/G/1 FIFO
  kMg1Sjf,              // M/G/1 non-preemptive SJF on exact sizes (exponential sizes)
};

struct QueueingTheorySpec {
  QueueingModel model = QueueingModel::kErlangC;
  std::string workload{};  // the Arrivals workload
  int servers = 1;         // c: whole GPUs
  // Cobham: the workload's classes from the highest priority down, with their priority
  // class names (the names the run's per-class latencies carry) and arrival rates. Other
  // models: one entry, "all", with the total rate.
  std::vector<std::string> classes{};
  std::vector<double> lambdas{};
  double mean_s = 0;            // E[S] over all arrivals
  double second_moment_s2 = 0;  // E[S²] over all arrivals
};

inline std::string_view QueueingModelName(QueueingModel model) {
  switch (model) {
    case QueueingModel::kErlangC:
      return "M/M/c FIFO, Erlang C";
    case QueueingModel::kCobham:
      return "M/M/c priority, Cobham";
    case QueueingModel::kPollaczekKhinchine:
      return "M/G/1 FIFO, Pollaczek-Khinchine";
    case QueueingModel::kMg1Sjf:
      return "M/G/1 SJF";
  }
  return "?";
}

}  // namespace migsim
