#pragma once
// The processes on one shared device (time-sliced, MPS or fractional) and when each one
// completes, kept so that a start or a stop costs what it changes rather than a pass over
// every process.
//
// Every share rule of time_share.h gives processes of equal demand and cap equal shares,
// so the processes fall into classes (ProcessClass) whose members all run at one speed: a
// class's share over its demand, less the switch overhead. Each class keeps a virtual
// clock, the solo seconds of work one of its processes has done since the class began,
// which advances at the class's speed (as a processor-sharing server's virtual time). A
// process that joins with `work` solo seconds left when its class's clock reads v
// completes when the clock reaches v + work, its virtual end, which no later start or stop
// moves. So a start or a stop advances the clocks and re-solves the shares over the
// classes, O(classes), and inserts or erases one virtual end, O(log processes); the next
// completion is the earliest virtual end of each class, converted at its speed. Demands
// are job classes' duty cycles and caps a handful of share sizes, so classes are few; with
// as many classes as processes it is the old O(processes) per event again, no worse.
//
// Identical to recomputing every process at every event (tests/sim/engine/device_time_share_
// test.cc keeps that recomputation as its reference) up to floating-point rounding: the
// shares of one class are computed once rather than process by process, and a process's
// end comes from its class's clock rather than from progress summed event by event.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "sim/core/ids.h"
#include "sim/core/sim_time.h"

namespace migsim {

// How a device divides its time among its processes (time_share.h).
enum class ShareRule {
  kMaxMin,      // time-slicing: max-min fair over the demands (MaxMinShares)
  kCappedFair,  // a shared claim's MPS: max-min fair over min(demand, cap) (CappedFairShares)
  kCapped,      // the plugin's MPS, fractional shares: min(demand, cap) each (CappedShares)
};

// What decides a process's share and speed. Processes with equal classes run alike.
struct ProcessClass {
  double demand = 1;  // its duty cycle, in (0, 1]
  double cap = 1;     // the most of the device it may use (1 for time-slicing)
  bool fixed_speed = false;  // a recorded run: speed 1 whatever its share
  auto operator<=>(const ProcessClass&) const = default;
};

class DeviceTimeShare {
 public:
  // Brings every class's clock to `now` at its current speed. Call before a change.
  void AdvanceTo(SimTime now);

  // Adds a process in `cls` that completes after `work` more solo seconds, or never
  // (nullopt: it takes its share but does not end). `seq` orders processes that complete
  // together (their start order). Returns its virtual end, to give back to Remove.
  std::optional<double> Add(PodId pod, const ProcessClass& cls, std::optional<double> work,
                            uint64_t seq);
  // Removes a process Add returned `virtual_end` for.
  void Remove(PodId pod, const ProcessClass& cls, std::optional<double> virtual_end,
              uint64_t seq);

  // Re-solves every class's share and speed for the processes now on the device (`overhead`
  // slows every process while there are two or more, time-slicing's switches); returns the
  // sum of the shares (the device's busy fraction before capping at 1).
  double Reshare(ShareRule rule, double overhead);

  // When the earliest completion happens at the current speeds (SimTime::Max() for a class
  // that does not progress); nullopt when no process ends.
  std::optional<SimTime> NextEnd() const;
  // The processes that complete by `now` at the speeds of the last Reshare, in `seq` order.
  std::vector<PodId> EndedBy(SimTime now) const;
  // The seconds after the last AdvanceTo at which a process of `cls` with `virtual_end`
  // completes at the speeds of the last Reshare (0 when due; infinite when its class does
  // not progress).
  double SecondsLeft(const ProcessClass& cls, double virtual_end) const;
  // The class clock of `cls` at `now` (a process's progress is 1 - (virtual end - clock) x
  // its solo rate).
  double ClockAt(const ProcessClass& cls, SimTime now) const;

  int64_t processes() const { return processes_; }

 private:
  struct End {
    double virtual_end = 0;
    uint64_t seq = 0;
    PodId pod;
    auto operator<=>(const End&) const = default;
  };
  struct Class {
    int64_t count = 0;  // its processes, those that never end included
    double clock = 0;   // solo seconds of work each of its processes has done (see above)
    double share = 0;   // of the device's time, each
    double speed = 0;   // relative to running alone
    std::set<End> ends;
  };
  static double SecondsLeft(const Class& c, double virtual_end);
  SimTime EndOf(const Class& c, double virtual_end) const;

  std::map<ProcessClass, Class> classes_;
  int64_t processes_ = 0;
  SimTime at_ = SimTime::Zero();  // when the clocks were last advanced
};

}  // namespace migsim
