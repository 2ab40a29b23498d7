// Running pods: their run time alone, how time-sliced pods share a device, and
// whether their GPU memory fits.
//
// A pod on an exclusive device (a whole GPU or a MIG device without replicas, or no GPU)
// runs at the speed the job class gives for that device, so its end is known when it
// starts. Pods on a time-sliced device are processes sharing its time (time_share.h):
// whenever one starts or stops there, the others' speeds may change; the clocks of their
// classes keep their progress, and the device one event for the earliest end
// (device_time_share.h).
#include <algorithm>
#include <limits>

#include "sim/core/check.h"
#include "sim/engine/backoff.h"
#include "sim/engine/device_time_share.h"
#include "sim/engine/engine.h"

namespace migsim {
namespace {

// True for a device a shared ResourceClaim under MPS holds.
bool ClaimMps(const NodeRuntime::Device& dev) {
  return dev.sharing != nullptr && dev.sharing->strategy == dra::SharingStrategy::kMps;
}

}  // namespace

std::optional<SimTime> Engine::PlanRun(Pod& pod) {
  const PodTemplate& t = templates_[pod.tmpl.value()];
  if (pod.recorded_run) return StartRun(pod, *pod.recorded_run, EndReason::kCompleted);
  MIGSIM_CHECK(t.job_class.valid(), "a pod that ends on its own needs a job class");
  const JobClass& jc = job_classes_[t.job_class.value()];
  std::string_view kind = "cpu";
  const GpuModel* model = nullptr;
  if (pod.device_count > 0) {
    const NodeRuntime& runtime = runtimes_[pod.node.value()];
    kind = runtime.devices()[DevicesOf(pod)[0].device].kind;
    model = runtime.spec().type->gpu;
  }
  std::optional<SimTime> run = RunTimeOnDevice(jc, model, kind);
  if (!run) return std::nullopt;
  // Draw only when failures are possible, so adding a class with none does not shift
  // the random stream of the others.
  bool fails = jc.failure_probability > 0 && rng_.Bernoulli(jc.failure_probability);
  return StartRun(pod, *run, fails ? EndReason::kError : EndReason::kCompleted);
}

SimTime Engine::StartRun(Pod& pod, SimTime run, EndReason end) {
  // A pod resumed from a checkpoint has only the rest of the work to do.
  if (pod.resumed > 0) run = SimTime::Seconds(run.seconds() * (1 - pod.resumed));
  pod.planned_end = end;
  // A run of no time is done as it starts, on a shared device too (its rate is finite).
  pod.progress = run.micros() == 0 ? 1.0 : 0.0;
  pod.progress_at = now_;
  pod.solo_rate_per_s = 1e6 / static_cast<double>(std::max<int64_t>(run.micros(), 1));
  return run;
}

// A pod that also holds exclusive devices (say a 3g.20gb and a time-sliced 1g.5gb) is a
// process on its first shared device; its exclusive devices are busy by its duty cycle.
std::optional<uint32_t> Engine::SharedDevice(const Pod& pod) const {
  const NodeRuntime& runtime = runtimes_[pod.node.value()];
  for (const NodeRuntime::Held& held : DevicesOf(pod)) {
    if (runtime.devices()[held.device].plugin.shared) return held.device;
  }
  return std::nullopt;
}

// How the device divides its time (time_share.h): max-min fair when time-sliced, each
// capped when concurrent (MPS: at 1/replicas, or a shared claim's active thread percentage,
// fairly when those caps oversubscribe the device; a fractional share: at its units).
ShareRule Engine::RuleOf(const NodeRuntime::Device& dev) {
  if (ClaimMps(dev)) return ShareRule::kCappedFair;
  return dev.plugin.mps || dev.plugin.fractional ? ShareRule::kCapped : ShareRule::kMaxMin;
}

ProcessClass Engine::ProcessClassOf(const Pod& pod, uint32_t device) const {
  const NodeRuntime::Device& dev = runtimes_[pod.node.value()].devices()[device];
  double cap = 1.0;
  if (ClaimMps(dev)) {
    cap = dev.sharing->active_thread_percentage / 100.0;
  } else if (dev.plugin.fractional) {
    cap = ShareOf(pod, device);
  } else if (dev.plugin.mps) {
    cap = static_cast<double>(100 / dev.plugin.replicas) / 100.0;  // as MpsShares
  }
  // A trace pod's recorded run time already reflects the share it had: it keeps it.
  return {.demand = DutyCycleOf(pod), .cap = cap, .fixed_speed = pod.recorded_run.has_value()};
}

// The pod's virtual end on its device while it runs there (none for one that never ends).
std::optional<double> Engine::VirtualEndOf(const Pod& pod) const {
  if (templates_[pod.tmpl.value()].runs_forever) return std::nullopt;
  return pod.virtual_end;
}

void Engine::AddProcess(Pod& pod, uint32_t device) {
  NodeRuntime& runtime = runtimes_[pod.node.value()];
  runtime.AddProcess(device, pod.id, GpuMemoryOf(pod));
  DeviceTimeShare& share = runtime.time_share(device);
  share.AdvanceTo(now_);
  MIGSIM_CHECK(next_process_seq_ < std::numeric_limits<uint32_t>::max(),
               "more than 4,294,967,295 process starts on shared devices in one run");
  pod.process_seq = ++next_process_seq_;
  std::optional<double> work;
  if (!templates_[pod.tmpl.value()].runs_forever) work = (1.0 - pod.progress) / pod.solo_rate_per_s;
  pod.virtual_end =
      share.Add(pod.id, ProcessClassOf(pod, device), work, pod.process_seq).value_or(0.0);
}

bool Engine::RemoveProcess(Pod& pod, uint32_t device) {
  NodeRuntime& runtime = runtimes_[pod.node.value()];
  if (!runtime.RemoveProcess(device, pod.id, GpuMemoryOf(pod))) return false;
  DeviceTimeShare& share = runtime.time_share(device);
  share.AdvanceTo(now_);
  share.Remove(pod.id, ProcessClassOf(pod, device), VirtualEndOf(pod), pod.process_seq);
  pod.process_seq = 0;
  return true;
}

// O(classes of processes + log processes) per start or stop (device_time_share.h): the
// caller has added or removed the process; the others keep their virtual ends.
void Engine::Reshare(NodeId node, uint32_t device) {
  NodeRuntime& runtime = runtimes_[node.value()];
  const NodeRuntime::Device& dev = runtime.devices()[device];
  const ShareRule rule = RuleOf(dev);
  // No time-slice switching between concurrent clients.
  const double overhead = rule == ShareRule::kMaxMin ? runtime.spec().plugin.switch_overhead : 0.0;
  DeviceTimeShare& share = runtime.time_share(device);
  const double busy = share.Reshare(rule, overhead);
  SetBusy(node, device, std::min(busy, 1.0));
  NotifyNodeGpuUse(node.value());
  // One pending event per device, for the earliest end: rates change at every start and
  // stop, and an event per process per change would grow the queue quadratically.
  runtime.set_tick(device, ++next_tick_);
  if (std::optional<SimTime> first_end = share.NextEnd()) {
    events_.Push(*first_end, DeviceTick{node, device, next_tick_});
  }
}

void Engine::AdvanceProgress(Pod& pod) {
  if (pod.process_seq != 0 && !templates_[pod.tmpl.value()].runs_forever) {
    // A process on a shared device: its progress is where its class's clock stands.
    const uint32_t device = *SharedDevice(pod);
    const double clock =
        runtimes_[pod.node.value()].time_share(device).ClockAt(ProcessClassOf(pod, device), now_);
    pod.progress = std::clamp(1.0 - (pod.virtual_end - clock) * pod.solo_rate_per_s, 0.0, 1.0);
  } else {
    pod.progress =
        std::min(1.0, pod.progress + pod.solo_rate_per_s * (now_ - pod.progress_at).seconds());
  }
  pod.progress_at = now_;
}

void Engine::Handle(const DeviceTick& e) {
  // Those that complete by now at the speeds the tick was computed for, in start order.
  const std::vector<PodId> done = runtimes_[e.node.value()].time_share(e.device).EndedBy(now_);
  MIGSIM_CHECK(!done.empty(), "a device tick with no process to end");
  for (PodId id : done) {
    Pod& pod = pods_[id.value()];
    if (!pod.on_node()) continue;  // ended by a neighbour's controller meanwhile
    EndPod(pod, pod.planned_end == EndReason::kCompleted ? PodPhase::kSucceeded : PodPhase::kFailed,
           pod.planned_end);
  }
}

bool Engine::Stale(const Event& event) const {
  if (const auto* start = std::get_if<PodStart>(&event)) {
    return pods_[start->pod.value()].generation != start->generation;
  }
  if (const auto* end = std::get_if<PodEnd>(&event)) {
    return pods_[end->pod.value()].generation != end->generation;
  }
  if (const auto* rank = std::get_if<RankChange>(&event)) return StaleRankChange(*rank);
  if (const auto* tick = std::get_if<DeviceTick>(&event)) {
    const NodeRuntime& runtime = runtimes_[tick->node.value()];
    return tick->device >= runtime.devices().size() ||
           runtime.devices()[tick->device].tick != tick->tick;
  }
  if (const auto* timeout = std::get_if<GangTimeout>(&event)) {
    return gangs_[timeout->gang.value()].round != timeout->round;
  }
  return false;
}

}  // namespace migsim

namespace migsim {

// Memory: a process holds its job class's GPU memory on its (first) device. A
// time-sliced device has one framebuffer for all its processes and no isolation, so
// the process that does not fit next to the others dies (domain.md §6.3); a MIG device
// or a whole GPU only has to hold the one process.

double Engine::ShareOf(const Pod& pod, uint32_t device) const {
  const NodeRuntime::Device& d = runtimes_[pod.node.value()].devices()[device];
  for (const NodeRuntime::Held& held : DevicesOf(pod)) {
    if (held.device == device) return static_cast<double>(held.count) / d.plugin.replicas;
  }
  return 0;
}

double Engine::DutyCycleOf(const Pod& pod) const {
  const PodTemplate& t = templates_[pod.tmpl.value()];
  return t.job_class.valid() ? job_classes_[t.job_class.value()].duty_cycle : 1.0;
}

void Engine::SetBusy(NodeId node, uint32_t device, double fraction) {
  busy_weight_ += runtimes_[node.value()].SetBusy(device, fraction);
  // A running sum of float deltas can end a hair below zero; it cannot really.
  const double busy = std::max(busy_weight_, 0.0);
  for (EngineObserver* o : observers_) o->OnGpuBusy(now_, busy, capacity_weight_);
}

void Engine::NotifyNodeGpuUse(uint32_t node) {
  if (node_gpu_use_observer_ == nullptr) return;
  const NodeRuntime& runtime = runtimes_[node];
  // As for the cluster's sum (SetBusy), a running sum can end a hair below zero.
  node_gpu_use_observer_->OnNodeGpuUse(now_, NodeId(node), runtime.active_weight(),
                                       std::max(runtime.busy_weight(), 0.0));
}

bool Engine::SetBusyOfExclusiveDevices(const Pod& pod, double fraction) {
  bool any = false;
  for (const NodeRuntime::Held& held : DevicesOf(pod)) {
    if (!runtimes_[pod.node.value()].devices()[held.device].plugin.shared) {
      SetBusy(pod.node, held.device, fraction);
      any = true;
    }
  }
  return any;
}

int64_t Engine::GpuMemoryOf(const Pod& pod) const {
  const PodTemplate& t = templates_[pod.tmpl.value()];
  return t.job_class.valid() ? job_classes_[t.job_class.value()].gpu_memory_mib : 0;
}

bool Engine::FitsDeviceMemory(const Pod& pod) const {
  const int64_t need = GpuMemoryOf(pod);
  if (pod.device_count == 0 || need == 0) return true;
  const uint32_t index = SharedDevice(pod).value_or(DevicesOf(pod)[0].device);
  const NodeRuntime::Device& device = runtimes_[pod.node.value()].devices()[index];
  // MPS pins each client to memory / replicas, a fractional share to its share of the
  // memory, whatever the neighbours hold.
  if (device.plugin.mps) return need <= device.plugin.memory_mib / device.plugin.replicas;
  // A shared claim's MPS clients with a pinned memory limit each have that much; without
  // one they share the framebuffer, as time-sliced processes do.
  if (device.sharing != nullptr && device.sharing->pinned_memory_limit_mib > 0) {
    return need <=
           std::min<int64_t>(device.sharing->pinned_memory_limit_mib, device.plugin.memory_mib);
  }
  if (device.plugin.fractional) return need <= device.plugin.memory_mib * ShareOf(pod, index);
  return device.process_memory_mib + need <= device.plugin.memory_mib;
}

// restartPolicy Always (Deployment pods) restarts the container in place after
// kubelet's CrashLoopBackOff (10 s, 20 s, ... 5 min), keeping its devices; other pods
// fail, and their controllers decide (Job back-off and backoffLimit, retryStrategy).
void Engine::OutOfMemory(Pod& pod) {
  if (!templates_[pod.tmpl.value()].runs_forever) {
    events_.Push(now_, PodEnd{pod.id, pod.generation, EndReason::kOomKilled});
    return;
  }
  pod.phase = PodPhase::kStarting;
  SetReady(pod, false);
  ++pod.restarts;
  const SimTime backoff = ExponentialBackoff(static_cast<int>(pod.restarts), SimTime::Seconds(300));
  events_.Push(now_ + backoff, PodStart{pod.id, pod.generation});
}

}  // namespace migsim
