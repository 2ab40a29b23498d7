// The checks at the end of Engine::Run: pod accounting (pod_accounting.h) and the
// invariants that tie the pods' states to the scheduling queue, the nodes' books and the
// event queue. Each is O(pods + the nodes' resources and devices + queued events), once
// per run; a failure is a bug in migsim and aborts in every build type (check.h).
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/check.h"
#include "sim/engine/engine.h"
#include "sim/engine/pod_accounting.h"

namespace migsim {

void Engine::CheckAccounting() const {
  // The released pods were counted as they were released (ReleaseOverPods): the check
  // stays a comparison of counts, which a lost or duplicated pod still breaks.
  PodCensus census = released_census_;
  census.Merge(TakeCensus(pods_, controllers_.size()));
  std::optional<std::string> error = PodAccountingError(
      submitted_by_owner_, census, [this](OwnerId o) { return controllers_[o.value()]->name(); });
  if (!error) error = QueueError();
  if (!error) error = NodeBookingError();
  if (!error) error = LiveEventError();
  if (!error) error = GangError();
  if (!error) {
    error = KillAccountingError(counters_.killed, census, [this](PodId id) {
      return pods_.released(id.value()) ? "pod " + std::to_string(id.value())
                                        : PodName(pods_[id.value()]);
    });
  }
  const bool pods_accounted_for = !error.has_value();
  MIGSIM_CHECK(pods_accounted_for, ("pod accounting at the end of the run: " + *error).c_str());
}

// Every pending pod waits in the scheduling queue, once; besides them the queue holds
// only deleted pods it has not reached yet (engine.cc, Delete).
std::optional<std::string> Engine::QueueError() const {
  std::vector<uint8_t> queued(pods_.size(), 0);
  std::optional<std::string> error;
  queue_.ForEach([&](PodId id) {
    if (error) return;
    if (id.value() >= pods_.size()) {
      error = "the scheduling queue holds pod id " + std::to_string(id.value()) + ", no pod's";
      return;
    }
    const Pod& pod = pods_[id.value()];
    if (queued[id.value()]++ > 0) {
      error = PodName(pod) + " is in the scheduling queue twice";
    } else if (pod.phase != PodPhase::kPending && pod.phase != PodPhase::kDeleted) {
      error = PodName(pod) + " is " + std::string(PhaseName(pod.phase)) +
              " but still in the scheduling queue";
    }
  });
  if (error) return error;
  for (size_t i = 0; i < pods_.size(); ++i) {
    if (pods_[i].phase == PodPhase::kPending && queued[i] == 0) {
      return PodName(pods_[i]) + " is pending but not in the scheduling queue";
    }
  }
  return std::nullopt;
}

namespace {

// What the pods bound to one node hold, summed from the pods.
struct Booked {
  int64_t cpu_milli = 0;
  int64_t memory_mib = 0;
  int32_t without_cpu = 0;        // pods that request no CPU
  int32_t without_memory = 0;     // pods that request no memory
  std::vector<int64_t> extended;  // by ResourceId, as long as the node's `requested`
  std::vector<int64_t> tenants;   // by device index
};

std::string Differ(const std::string& what, int64_t node, int64_t pods) {
  return what + " is " + std::to_string(node) + " on the node but " + std::to_string(pods) +
         " summed over its bound pods";
}

// The node's requested resources and device tenants against its bound pods' sums.
std::optional<std::string> BookingError(const NodeInfo& info, const NodeRuntime& runtime,
                                        const Booked& booked, const ResourceTable& resources) {
  if (info.cpu_milli_requested != booked.cpu_milli) {
    return Differ("requested CPU (milli)", info.cpu_milli_requested, booked.cpu_milli);
  }
  if (info.memory_mib_requested != booked.memory_mib) {
    return Differ("requested memory (MiB)", info.memory_mib_requested, booked.memory_mib);
  }
  if (info.pods_without_cpu != booked.without_cpu) {
    return Differ("pods requesting no CPU", info.pods_without_cpu, booked.without_cpu);
  }
  if (info.pods_without_memory != booked.without_memory) {
    return Differ("pods requesting no memory", info.pods_without_memory, booked.without_memory);
  }
  for (size_t r = 0; r < booked.extended.size(); ++r) {
    if (info.requested[r] == booked.extended[r]) continue;
    const ResourceId id(static_cast<ResourceId::Rep>(r));
    return Differ("requested " + resources.name(id), info.requested[r], booked.extended[r]);
  }
  for (size_t d = 0; d < booked.tenants.size(); ++d) {
    const int32_t used = runtime.devices()[d].used;
    if (used != booked.tenants[d]) {
      return Differ("the tenants of device " + std::to_string(d), used, booked.tenants[d]);
    }
  }
  return std::nullopt;
}

}  // namespace

// Each node's requested CPU, memory and extended resources, and each device's tenants,
// are what the pods bound (or reserved) there hold and the shared claims allocated there:
// binding and releasing (and a MIG change's remap) kept them in step.
std::optional<std::string> Engine::NodeBookingError() const {
  std::vector<Booked> booked(node_info_.size());
  for (size_t n = 0; n < booked.size(); ++n) {
    booked[n].extended.assign(node_info_[n].requested.size(), 0);
    booked[n].tenants.assign(runtimes_[n].devices().size(), 0);
  }
  for (const Pod& pod : pods_) {
    if (!pod.holds_node()) continue;
    if (pod.node.value() >= booked.size()) return PodName(pod) + " is bound to no node";
    Booked& b = booked[pod.node.value()];
    const PodRequests& r = templates_[pod.tmpl.value()].requests;
    b.cpu_milli += r.cpu_milli;
    b.memory_mib += r.memory_mib;
    b.without_cpu += r.cpu_milli == 0 ? 1 : 0;
    b.without_memory += r.memory_mib == 0 ? 1 : 0;
    for (const ResourceRequest& e : r.extended) {
      if (e.resource.value() >= b.extended.size()) {
        return PodName(pod) + " requests " + resources_.name(e.resource) +
               ", which its node does not book";
      }
      b.extended[e.resource.value()] += e.count;
    }
    for (const NodeRuntime::Held& held : DevicesOf(pod)) {
      if (held.device >= b.tenants.size()) return PodName(pod) + " holds no device of its node";
      b.tenants[held.device] += held.count;
    }
  }
  // A shared claim holds one tenant of each of its devices; its pods hold them with none.
  for (size_t c = 0; c < shared_claims_.size(); ++c) {
    const dra::SharedClaimId id(static_cast<dra::SharedClaimId::Rep>(c));
    for (const NodeRuntime::Held& held : shared_claims_.book(id).devices) {
      booked[shared_claims_.states()[c].node.value()].tenants[held.device] += held.count;
    }
  }
  for (size_t n = 0; n < booked.size(); ++n) {
    if (auto e = BookingError(node_info_[n], runtimes_[n], booked[n], resources_)) {
      return "node " + node_info_[n].name + ": " + *e;
    }
  }
  if (const std::optional<uint32_t> n = capacity_index_.StaleNode(node_info_)) {
    return "node " + node_info_[*n].name +
           ": the capacity index missed a change of its books (no NodeChanged)";
  }
  return std::nullopt;
}

// A bound pod that is starting, or running and ends on its own, has a live event that
// moves it on: its start or end, or the tick of the time-sliced device it runs on. Events
// past the horizon stay queued, so this holds with a horizon too.
std::optional<std::string> Engine::LiveEventError() const {
  std::vector<uint8_t> moves_on(pods_.size(), 0);
  for (const auto& entry : events_.entries()) {
    const Event& e = entry.payload;
    if (Stale(e)) continue;
    if (const auto* start = std::get_if<PodStart>(&e)) {
      moves_on[start->pod.value()] = 1;
    } else if (const auto* end = std::get_if<PodEnd>(&e)) {
      moves_on[end->pod.value()] = 1;
    } else if (const auto* tick = std::get_if<DeviceTick>(&e)) {
      const NodeRuntime::Device& device = runtimes_[tick->node.value()].devices()[tick->device];
      for (PodId id : device.processes) moves_on[id.value()] = 1;
    }
  }
  for (size_t i = 0; i < pods_.size(); ++i) {
    const Pod& pod = pods_[i];
    const bool must_move = pod.phase == PodPhase::kStarting ||
                           (pod.phase == PodPhase::kRunning &&
                            !templates_[pod.tmpl.value()].runs_forever);
    if (must_move && moves_on[i] == 0) {
      return PodName(pod) + " is " + std::string(PhaseName(pod.phase)) +
             " but no queued event starts or ends it";
    }
  }
  return std::nullopt;
}

}  // namespace migsim
