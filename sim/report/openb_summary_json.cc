#include "sim/report/openb_summary_json.h"

#include "sim/report/document_json.h"
#include "sim/report/openb_summary.h"

namespace migsim {
namespace {

// A mean, or null where the table says "n/a" (no run).
OrderedJson MeanJson(const MeanSd& m) {
  return m.n == 0 ? OrderedJson(nullptr) : OrderedJson(JsonMicro(m.mean));
}

// A table cell "mean ±half-width (n/of)" as its numbers.
OrderedJson IntervalJson(const MeanSd& m) {
  return {{"mean", MeanJson(m)},
          {"half_width", m.n == 0 ? OrderedJson(nullptr) : OrderedJson(JsonMicro(HalfWidth95(m)))},
          {"n", m.n},
          {"missing", m.missing}};
}

OrderedJson MigJson(const std::vector<MigFillRun>& mig) {
  OrderedJson rows = OrderedJson::array();
  for (const MigSummaryRow& row : MigSummaryRows(mig)) {
    rows.push_back({{"variant", row.variant},
                    {"trace", row.trace},
                    {"placed_percent_at_100", MeanJson(row.placed_100)},
                    {"placed_percent_at_130", MeanJson(row.placed_130)},
                    {"slices_percent_at_130", MeanJson(row.slices_130)},
                    {"mig_frag_percent_at_100", MeanJson(row.frag_100)}});
  }
  return {{"runs", mig.size()}, {"nodes", MigSummaryNodes(mig)}, {"rows", std::move(rows)}};
}

}  // namespace

std::string FormatOpenbJson(const std::vector<FillRun>& runs,
                            const std::vector<std::string>& policies,
                            const std::map<std::string, int64_t>& refused,
                            const std::vector<MigFillRun>* mig) {
  OrderedJson fill = OrderedJson::array();
  for (const FillSummaryRow& row : FillSummaryRows(runs, policies)) {
    fill.push_back({{"policy", row.policy},
                    {"trace", row.trace},
                    {"seeds", row.seeds},
                    {"alloc_percent_at_100", IntervalJson(row.alloc_100)},
                    {"alloc_percent_at_130", IntervalJson(row.alloc_130)},
                    {"failed_pods", IntervalJson(row.failed_pods)}});
  }
  OrderedJson final_state = OrderedJson::array();
  for (const FinalStateRow& row : FinalStateRows(runs, policies)) {
    OrderedJson j = {{"policy", row.policy}, {"trace", row.trace}};
    for (size_t i = 0; i < kFinalStateColumns.size(); ++i) {
      j[std::string(kFinalStateColumns[i])] = JsonMicro(row.means[i]);
    }
    final_state.push_back(std::move(j));
  }
  OrderedJson refusals = OrderedJson::object();
  for (const auto& [policy, count] : refused) refusals[policy] = count;
  return JsonDocument({{"runs", runs.size()},
                       {"fill", std::move(fill)},
                       {"final_state", std::move(final_state)},
                       {"refused_placements", std::move(refusals)},
                       {"mig", mig ? MigJson(*mig) : OrderedJson(nullptr)}});
}

}  // namespace migsim
