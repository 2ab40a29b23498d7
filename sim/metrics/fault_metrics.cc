#include "sim/metrics/fault_metrics.h"

#include <algorithm>

#include "sim/controllers/faults/fault_injector.h"
#include "sim/engine/engine.h"

namespace migsim {

FaultRecorder::Owner& FaultRecorder::owner(OwnerId id) {
  if (owners_.size() <= id.value()) owners_.resize(id.value() + 1);
  return owners_[id.value()];
}

void FaultRecorder::OnPodStarted(SimTime now, const Pod& pod) {
  if (running_.size() <= pod.id.value()) running_.resize(pod.id.value() + 1, 0);
  running_[pod.id.value()] = 1;
  Owner& o = owner(pod.owner);
  ++o.running;
  if (o.open && o.running >= o.open->target) {
    recovered_s_.push_back((now - o.open->since).seconds());
    o.open.reset();
  }
}

void FaultRecorder::StopRunning(const Pod& pod) {
  if (pod.id.value() >= running_.size() || running_[pod.id.value()] == 0) return;
  running_[pod.id.value()] = 0;
  --owner(pod.owner).running;
}

void FaultRecorder::OnPodEnded(SimTime, const Pod& pod) { StopRunning(pod); }

// A kill by a fault opens an incident of its workload, unless one is open: recovery is
// running as many pods as before the first kill (at least one).
void FaultRecorder::OnPodKilled(SimTime now, const Pod& pod) {
  Owner& o = owner(pod.owner);
  if (o.killed_by.empty()) o.killed_by.assign(kEndReasonCount, 0);
  o.killed_by[static_cast<size_t>(pod.ending)] = 1;
  // Preemption and Kueue's graceful deletions are kills, not faults: no incident opens.
  const bool by_fault = pod.ending != EndReason::kPreempted && pod.ending != EndReason::kDeleted;
  if (by_fault && !o.open) o.open = Incident{now, std::max<int64_t>(1, o.running)};
  StopRunning(pod);
}

void FaultRecorder::OnFault(SimTime now, const FaultNotice& notice) {
  notices_.emplace_back(now, notice);
}

void FaultRecorder::OnPoolAvailability(SimTime now, uint32_t pool, int64_t available,
                                       int64_t total) {
  if (pools_.size() <= pool) pools_.resize(pool + 1), pool_gpus_.resize(pool + 1, 0);
  pool_gpus_[pool] = std::max(pool_gpus_[pool], total);
  const double fraction = total > 0 ? static_cast<double>(available) / total : 1;
  auto& series = pools_[pool];
  if (!series.empty() && series.back().first == now) {
    series.back().second = fraction;
  } else if (series.empty() || series.back().second != fraction) {
    series.emplace_back(now, fraction);
  }
}

namespace {

// Time-weighted mean and minimum of a step series over [0, end].
void Summarize(PoolAvailability& p, SimTime end) {
  if (p.series.empty()) return;
  double area = 0;
  p.min = 1;
  for (size_t i = 0; i < p.series.size(); ++i) {
    const SimTime to = i + 1 < p.series.size() ? p.series[i + 1].first : end;
    area += p.series[i].second * std::max(0.0, (to - p.series[i].first).seconds());
    p.min = std::min(p.min, p.series[i].second);
  }
  p.mean = end.micros() > 0 ? area / end.seconds() : p.series.back().second;
}

}  // namespace

FaultMetrics FaultRecorder::Finish(const Engine& engine, double allocated_gpu_hours) const {
  FaultMetrics m;
  m.faults = engine.counters().fault_hits;
  m.gpu_hours_lost = engine.counters().gpu_hours_lost_to_faults();
  if (allocated_gpu_hours > 0) {
    const double lost = m.gpu_hours_lost + engine.counters().gpu_hours_lost_to_preemption();
    m.goodput = std::max(0.0, 1 - lost / allocated_gpu_hours);
  }
  const auto& killed = engine.counters().killed;
  for (size_t r = 0; r < killed.size(); ++r) {
    if (killed[r] == 0) continue;
    KillsByCause k{std::string(EndReasonName(static_cast<EndReason>(r))), killed[r], 0};
    for (const Owner& o : owners_) k.workloads += !o.killed_by.empty() && o.killed_by[r] != 0;
    m.killed.push_back(std::move(k));
  }
  m.time_to_recover = ComputeLatency(recovered_s_);
  for (const Owner& o : owners_) m.unrecovered += o.open.has_value();
  // The pools are the faults controller's (it reported their availability).
  const auto* injector = FindController<FaultInjector>(engine.cluster_controllers());
  const std::span<const NodePoolRange> pools =
      injector != nullptr ? injector->pools() : std::span<const NodePoolRange>();
  for (size_t p = 0; p < pools_.size() && p < pools.size(); ++p) {
    PoolAvailability a{pools[p].name, pool_gpus_[p], 1, 1, pools_[p]};
    Summarize(a, engine.end_time());
    m.availability.push_back(std::move(a));
  }
  for (const auto& [at, n] : notices_) {
    m.events.push_back({at, std::string(FaultKindName(n.kind)), n.repaired,
                        engine.nodes()[n.node.value()].name, n.gpu});
  }
  return m;
}

}  // namespace migsim
