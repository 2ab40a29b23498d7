#include "sim/engine/device_time_share.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "sim/engine/time_share.h"

namespace migsim {
namespace {

// The recomputation DeviceTimeShare replaced (Engine::Reshare before issue 29): at every
// start and stop, every process's progress is brought up to date at its old speed, every
// share recomputed from the time_share.h rules process by process, and every end moved.
// O(processes) per event; the reference the incremental classes are checked against.
struct ReferenceDevice {
  struct Process {
    PodId pod;
    ProcessClass cls;
    bool ends = true;
    double solo_rate_per_s = 0;
    double progress = 0;
    double rate_per_s = 0;
    SimTime progress_at;
    double end_s = 0;  // unrounded
    uint64_t seq = 0;
  };
  ShareRule rule = ShareRule::kMaxMin;
  double overhead = 0;
  std::vector<Process> processes;  // in start order

  std::vector<double> Shares() const {
    std::vector<double> demands, caps;
    for (const Process& p : processes) {
      demands.push_back(p.cls.demand);
      caps.push_back(p.cls.cap);
    }
    if (rule == ShareRule::kMaxMin) return MaxMinShares(demands);
    if (rule == ShareRule::kCapped) return CappedShares(demands, caps);
    return CappedFairShares(demands, caps.empty() ? 1.0 : caps.front());
  }

  double Reshare(SimTime now) {
    const std::vector<double> shares = Shares();
    double busy = 0;
    for (double share : shares) busy += share;
    const int n = static_cast<int>(processes.size());
    for (int i = 0; i < n; ++i) {
      Process& p = processes[i];
      if (!p.ends) continue;
      p.progress = std::min(1.0, p.progress + p.rate_per_s * (now - p.progress_at).seconds());
      p.progress_at = now;
      const double speed =
          p.cls.fixed_speed ? 1.0 : TimeSlicedSpeed(shares[i], p.cls.demand, n, overhead);
      p.rate_per_s = p.solo_rate_per_s * speed;
      const double left = 1.0 - p.progress;
      p.end_s = left <= 0 ? now.seconds() : now.seconds() + left / p.rate_per_s;
    }
    return busy;
  }
};

// Uniform in [0, 1) from 53 bits: the same on every standard library.
double Uniform(std::mt19937_64& gen) { return static_cast<double>(gen() >> 11) * 0x1.0p-53; }
size_t Below(std::mt19937_64& gen, size_t n) { return static_cast<size_t>(gen() % n); }

struct Trial {
  ReferenceDevice ref;
  DeviceTimeShare incremental;
  std::vector<double> virtual_ends;  // by pod id
  std::vector<double> demands, caps;
  SimTime now = SimTime::Zero();
  uint64_t next_seq = 0;
  int checked_ends = 0;

  explicit Trial(std::mt19937_64& gen) {
    ref.rule = static_cast<ShareRule>(Below(gen, 3));
    ref.overhead = ref.rule == ShareRule::kMaxMin && Below(gen, 2) == 0 ? 0.05 : 0.0;
    // A few duty cycles (as job classes give) or, in one trial in four, a new one each time.
    const size_t kinds = Below(gen, 4) == 0 ? 0 : 1 + Below(gen, 4);
    for (size_t k = 0; k < kinds; ++k) demands.push_back(0.05 + 0.95 * Uniform(gen));
    const double device_cap = 0.1 + 0.5 * Uniform(gen);
    if (ref.rule == ShareRule::kCapped) {
      caps = {0.001, 0.05, 0.25, 0.5};  // fractional units held / units
    } else {
      caps = {ref.rule == ShareRule::kCappedFair ? device_cap : 1.0};
    }
  }

  ProcessClass RandomClass(std::mt19937_64& gen) const {
    const double demand = demands.empty() ? 0.05 + 0.95 * Uniform(gen)
                                          : demands[Below(gen, demands.size())];
    return {.demand = demand, .cap = caps[Below(gen, caps.size())],
            .fixed_speed = Below(gen, 10) == 0};
  }

  void Start(std::mt19937_64& gen) {
    ReferenceDevice::Process p;
    p.pod = PodId(static_cast<uint32_t>(virtual_ends.size()));
    p.cls = RandomClass(gen);
    p.ends = Below(gen, 20) != 0;  // some run forever
    const int64_t run_us = Below(gen, 30) == 0 ? 0 : 1 + static_cast<int64_t>(Below(gen, 600'000'000));
    p.solo_rate_per_s = 1e6 / static_cast<double>(std::max<int64_t>(run_us, 1));
    p.progress = run_us == 0 ? 1.0 : 0.0;
    p.rate_per_s = p.solo_rate_per_s;
    p.progress_at = now;
    p.seq = ++next_seq;
    incremental.AdvanceTo(now);
    std::optional<double> work;
    if (p.ends) work = (1.0 - p.progress) / p.solo_rate_per_s;
    virtual_ends.push_back(incremental.Add(p.pod, p.cls, work, p.seq).value_or(0));
    ref.processes.push_back(p);
    Reshare();
  }

  void Stop(size_t index) {
    const ReferenceDevice::Process p = ref.processes[index];
    ref.processes.erase(ref.processes.begin() + static_cast<std::ptrdiff_t>(index));
    incremental.AdvanceTo(now);
    incremental.Remove(p.pod, p.cls,
                       p.ends ? std::optional<double>(virtual_ends[p.pod.value()]) : std::nullopt,
                       p.seq);
    Reshare();
  }

  // Both reshare; every process's end and the device's busy fraction must agree.
  void Reshare() {
    const double busy = ref.Reshare(now);
    CHECK(incremental.Reshare(ref.rule, ref.overhead) == Approx(busy).margin(1e-12));
    CHECK(incremental.processes() == static_cast<int64_t>(ref.processes.size()));
    for (const ReferenceDevice::Process& p : ref.processes) {
      if (!p.ends) continue;
      const double end_s =
          now.seconds() + incremental.SecondsLeft(p.cls, virtual_ends[p.pod.value()]);
      REQUIRE(std::abs(end_s - p.end_s) <= 1e-9);
      // Progress read from the class's clock, as a checkpoint does.
      const double progress = std::clamp(
          1.0 - (virtual_ends[p.pod.value()] - incremental.ClockAt(p.cls, now)) * p.solo_rate_per_s,
          0.0, 1.0);
      REQUIRE(progress == Approx(p.progress).margin(1e-9));
    }
  }

  // The next completion, as the engine's device tick: the processes EndedBy returns are
  // those whose unrounded end is this tick's (within its microsecond), in start order, and
  // every other ends later.
  void CompleteNext() {
    const std::optional<SimTime> tick = incremental.NextEnd();
    REQUIRE(tick);
    now = *tick;
    const std::vector<PodId> ended = incremental.EndedBy(now);
    REQUIRE(!ended.empty());
    std::vector<size_t> indices;
    for (size_t i = 0; i < ref.processes.size(); ++i) {
      const ReferenceDevice::Process& p = ref.processes[i];
      if (!p.ends) continue;
      const bool in = std::find(ended.begin(), ended.end(), p.pod) != ended.end();
      if (in) {
        REQUIRE(p.end_s <= now.seconds() + 0.5e-6 + 1e-9);
        indices.push_back(i);
      } else {
        REQUIRE(p.end_s >= now.seconds() + 0.5e-6 - 1e-9);
      }
    }
    REQUIRE(indices.size() == ended.size());
    for (size_t k = 0; k < ended.size(); ++k) REQUIRE(ref.processes[indices[k]].pod == ended[k]);
    checked_ends += static_cast<int>(ended.size());
    for (size_t k = indices.size(); k-- > 0;) Stop(indices[k]);
  }
};

TEST_CASE("the device's process classes end every process when recomputing every share would",
          "[engine][time_share]") {
  std::mt19937_64 gen(29);
  int ends = 0;
  for (int trial = 0; trial < 300; ++trial) {
    Trial t(gen);
    for (int step = 0; step < 400; ++step) {
      const size_t op = Below(gen, 10);
      const bool any_end = t.incremental.NextEnd().has_value();
      if (op < 4 || t.ref.processes.empty()) {
        // A start before the next completion.
        const SimTime next = any_end ? *t.incremental.NextEnd() : SimTime::Max();
        const SimTime at = t.now + SimTime::Micros(static_cast<int64_t>(Below(gen, 5'000'000)));
        if (at < next) {
          t.now = at;
          t.Start(gen);
          continue;
        }
      }
      if (op < 8 && any_end && *t.incremental.NextEnd() < SimTime::Max()) {
        t.CompleteNext();
      } else if (!t.ref.processes.empty()) {
        t.Stop(Below(gen, t.ref.processes.size()));  // deleted or preempted meanwhile
      }
    }
    ends += t.checked_ends;
  }
  CHECK(ends > 10'000);  // the completions compared, not only the starts
}

TEST_CASE("processes of one class share one clock and complete in start order on a tie",
          "[engine][time_share]") {
  DeviceTimeShare d;
  const ProcessClass half{.demand = 1.0, .cap = 1.0};
  d.AdvanceTo(SimTime::Zero());
  const double a = *d.Add(PodId(7), half, 10.0, 1);
  const double b = *d.Add(PodId(3), half, 10.0, 2);
  CHECK(d.Reshare(ShareRule::kMaxMin, 0.0) == 1.0);
  CHECK(d.NextEnd() == SimTime::Seconds(20));  // both at half speed
  CHECK(d.EndedBy(SimTime::Seconds(20)) == std::vector<PodId>{PodId(7), PodId(3)});
  CHECK(d.EndedBy(SimTime::Seconds(19)).empty());
  // One leaves at 10 s: the other has 5 solo seconds left, alone at full speed.
  d.AdvanceTo(SimTime::Seconds(10));
  d.Remove(PodId(7), half, a, 1);
  d.Reshare(ShareRule::kMaxMin, 0.0);
  CHECK(d.NextEnd() == SimTime::Seconds(15));
  CHECK(d.ClockAt(half, SimTime::Seconds(12)) == Approx(7.0));
  d.AdvanceTo(SimTime::Seconds(15));
  d.Remove(PodId(3), half, b, 2);
  CHECK(d.Reshare(ShareRule::kMaxMin, 0.0) == 0.0);
  CHECK(!d.NextEnd());
  CHECK(d.processes() == 0);
}

}  // namespace
}  // namespace migsim
