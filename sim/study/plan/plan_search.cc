#include "sim/study/plan/plan_search.h"

#include <algorithm>
#include <map>

#include "sim/core/check.h"

namespace migsim {
namespace {

// Evaluates each size at most once and keeps the evidence in evaluation order.
class Probe {
 public:
  explicit Probe(const Evaluate& evaluate) : evaluate_(evaluate) {}

  bool Meets(int nodes) {
    if (auto it = seen_.find(nodes); it != seen_.end()) return it->second;
    answer_.evidence.emplace_back(nodes, evaluate_(nodes));
    const bool meets = answer_.evidence.back().second.meets;
    seen_.emplace(nodes, meets);
    return meets;
  }

  // "not monotone: 4 nodes meet the objectives, 5 do not", for the first pair of sizes
  // that contradicts monotonicity; empty when none does.
  std::string Contradiction() const {
    std::optional<int> smallest_met;
    for (const auto& [nodes, meets] : seen_) {  // ascending sizes
      if (meets && !smallest_met) smallest_met = nodes;
      if (!meets && smallest_met) {
        return "not monotone: " + std::to_string(*smallest_met) + " nodes meet the objectives, " +
               std::to_string(nodes) + " do not";
      }
    }
    return "";
  }

  PlanAnswer Take() { return std::move(answer_); }

 private:
  const Evaluate& evaluate_;
  std::map<int, bool> seen_;
  PlanAnswer answer_;
};

}  // namespace

const PlanEvaluation& PlanAnswer::chosen() const {
  MIGSIM_CHECK(!evidence.empty(), "a plan answer without evaluations");
  if (nodes) {
    for (const auto& [n, evaluation] : evidence) {
      if (n == *nodes) return evaluation;
    }
  }
  // No answer: the largest size evaluated, which is max_nodes.
  return std::max_element(evidence.begin(), evidence.end(), [](const auto& a, const auto& b) {
           return a.first < b.first;
         })->second;
}

// Exponential then binary search (see the header). Probing doubles rather than walking
// up from 1 because each evaluation is a set of simulations: a plan over 64 nodes costs
// about a dozen of them instead of up to 64. The extra evaluation of n + 1 is the
// cheapest check that the monotonicity assumption holds where it matters, at the answer.
PlanAnswer FindFewestNodes(const Evaluate& evaluate, int max_nodes) {
  MIGSIM_CHECK(max_nodes >= 1, "FindFewestNodes needs max_nodes >= 1");
  Probe probe(evaluate);
  int missed = 0;  // the largest size known to miss (0: none, trivially)
  std::optional<int> met;
  for (int n = 1;; n = n > max_nodes / 2 ? max_nodes : n * 2) {
    if (probe.Meets(n)) {
      met = n;
      break;
    }
    missed = n;
    if (n == max_nodes) break;
  }
  if (met) {
    while (*met - missed > 1) {
      const int mid = missed + (*met - missed) / 2;
      if (probe.Meets(mid)) {
        met = mid;
      } else {
        missed = mid;
      }
    }
    if (*met < max_nodes) probe.Meets(*met + 1);
  }
  const std::string contradiction = probe.Contradiction();
  PlanAnswer answer = probe.Take();
  answer.nodes = met;
  answer.warning = contradiction;
  return answer;
}

}  // namespace migsim
