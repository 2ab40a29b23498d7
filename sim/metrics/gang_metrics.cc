#include "sim/metrics/gang_metrics.h"

#include <algorithm>
#include <map>
#include <utility>

namespace migsim {

GangMetrics ComputeGangMetrics(std::span<const Gang> gangs, std::span<const Pod> pods,
                               const std::function<std::string(OwnerId)>& owner_name) {
  GangMetrics m;
  m.gangs = static_cast<int64_t>(gangs.size());
  for (const Gang& gang : gangs) {
    m.timeouts += gang.timeouts;
    if (gang.live > 0 && gang.bound == 0) ++m.waiting;
    if (!gang.permits.empty()) continue;
    ++m.never_scheduled;
    m.never_scheduled_owners.push_back(owner_name(gang.owner));
  }
  // The pods a Permit bound share their gang and bind time: one wait per such group. An
  // ordered map: the waits do not depend on hashing.
  std::map<std::pair<GangId, SimTime>, SimTime> latest_created;
  for (const Pod& pod : pods) {
    if (!pod.gang.valid() || !WasBound(pod)) continue;
    auto [it, added] = latest_created.try_emplace({pod.gang, pod.bound}, pod.created);
    if (!added) it->second = std::max(it->second, pod.created);
  }
  std::vector<double> waits;
  for (const auto& [bind, created] : latest_created) {
    waits.push_back((bind.second - created).seconds());
  }
  m.wait = ComputeLatency(std::move(waits));
  return m;
}

}  // namespace migsim
