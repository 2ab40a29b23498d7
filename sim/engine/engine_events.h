#pragma once
// The engine's events (engine.h): what its event queue holds, each applied at its time in
// (time, sequence) order. Controllers' events are their timers; the rest are the
// scheduler's and the kubelet's. An event made obsolete since it was queued is stale
// (Engine::Stale) and dropped unseen.

#include <cstdint>
#include <variant>

#include "sim/core/ids.h"
#include "sim/engine/pod.h"

namespace migsim {

// A workload controller's timer (ControllerContext::SetTimer).
struct ControllerTimer {
  OwnerId owner;
  uint64_t tag;
};
// A cluster controller's timer (ClusterApi::SetTimer); `idle`: TimerKind::kIdle.
struct ClusterTimer {
  uint32_t controller;
  bool idle;
  uint64_t tag;
};
struct PodStart {
  PodId pod;
  uint32_t generation;
};
struct PodEnd {
  PodId pod;
  uint32_t generation;
  EndReason reason;
};
// The earliest end among a time-sliced device's processes (see Reshare).
struct DeviceTick {
  NodeId node;
  uint32_t device;
  uint64_t tick;
};
// A pod's rank under a preemptive queue discipline changes (engine_disciplines.cc).
struct RankChange {
  PodId pod;
  uint32_t generation;
  bool running;  // scheduled for the pod running (else pending)
};
// A class's back-off ends: it may be offered again.
struct BackoffWake {};
// kube-scheduler's unschedulable timeout: blocked classes are retried. When only these
// are left, the run is over (a retry with nothing changed cannot bind anything).
struct UnschedulableFlush {};
// A gang's reservations have waited its schedule timeout (stale once its round moved on).
struct GangTimeout {
  GangId gang;
  uint32_t round;
};
using EngineEvent = std::variant<ControllerTimer, ClusterTimer, PodStart, PodEnd, DeviceTick,
                                 BackoffWake, UnschedulableFlush, GangTimeout, RankChange>;

}  // namespace migsim
