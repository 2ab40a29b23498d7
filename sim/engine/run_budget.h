#pragma once
// What one run may create, checked as it runs: what the scenario's estimate cannot know in
// advance (pods that keep failing under a Deployment, faults drawn without a horizon) is
// bounded here, so a run stops cleanly with a named reason instead of growing until the
// OOM killer ends it. The engine stops after the instant that went past a bound; the
// caller reports it (sim/io/input_limits.h names the limits).

#include <cstdint>
#include <limits>
#include <string_view>

#include "sim/core/sim_time.h"

namespace migsim {

struct RunBudget {
  int64_t pods = std::numeric_limits<int64_t>::max();        // pods created, retries included
  int64_t fault_hits = std::numeric_limits<int64_t>::max();  // faults that hit a node or GPU
};

enum class BudgetItem : uint8_t { kPods, kFaultHits };

// Why a run stopped early: the item that went past its bound, the bound, and when.
struct BudgetOverrun {
  BudgetItem item = BudgetItem::kPods;
  int64_t limit = 0;
  SimTime at{};
};

// "pods created", "faults that hit": for messages.
constexpr std::string_view BudgetItemName(BudgetItem item) {
  return item == BudgetItem::kPods ? "pods created" : "faults that hit";
}

}  // namespace migsim
