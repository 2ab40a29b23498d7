#pragma once
// What faults did to a run (definitions in README "Output"): pods and workloads killed per
// cause, time to recover, the pools' availability over time, goodput, and the faults
// themselves for the report's timeline and the trace. Collected by FaultRecorder, an
// observer, in runs whose scenario has faults.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/engine/observer.h"
#include "sim/metrics/run_metrics.h"

namespace migsim {

class Engine;

struct KillsByCause {
  std::string cause;      // an EndReason's name: NodeLost, GpuFailed, ...
  int64_t pods = 0;       // pods killed for it
  int64_t workloads = 0;  // controllers (Jobs, Deployments, ...) with at least one of them
};

struct PoolAvailability {
  std::string pool;
  int64_t gpus = 0;  // the most GPUs the pool had provisioned at once
  // Fraction of the pool's provisioned GPUs (a node group's slot counts while its instance
  // is up and Ready) healthy and on a Ready, uncordoned node — 1 while none is provisioned:
  // time-weighted mean over the run, its minimum, and its steps (time, fraction) from t = 0.
  double mean = 1;
  double min = 1;
  std::vector<std::pair<SimTime, double>> series;
};

struct FaultEventRecord {
  SimTime at;
  std::string kind;  // "node-lost", ...
  bool repaired = false;
  std::string node;
  int gpu = -1;
};

struct FaultMetrics {
  int64_t faults = 0;         // faults that hit a node or GPU
  double gpu_hours_lost = 0;  // Engine::gpu_hours_lost_to_faults
  // 1 - (GPU-hours lost to faults + to preemption) / GPU-hours allocated; nullopt without
  // allocated GPU time.
  std::optional<double> goodput;
  std::vector<KillsByCause> killed;  // causes with kills, in EndReason order
  // Per fault incident of a workload: from the first of its pods a fault killed to the
  // moment it runs as many pods again as just before (a gang: all its workers).
  LatencyStats time_to_recover;
  int64_t unrecovered = 0;  // incidents still open at the end (or whose workload finished)
  std::vector<PoolAvailability> availability;
  std::vector<FaultEventRecord> events;
};

class FaultRecorder final : public EngineObserver {
 public:
  void OnPodStarted(SimTime now, const Pod& pod) override;
  void OnPodEnded(SimTime now, const Pod& pod) override;
  void OnPodKilled(SimTime now, const Pod& pod) override;
  void OnFault(SimTime now, const FaultNotice& notice) override;
  void OnPoolAvailability(SimTime now, uint32_t pool, int64_t available, int64_t total) override;

  // REQUIRES: the engine has run. `allocated_gpu_hours`: RunMetrics::gpu_hours.
  FaultMetrics Finish(const Engine& engine, double allocated_gpu_hours) const;

 private:
  struct Incident {
    SimTime since;
    int64_t target = 0;
  };
  struct Owner {
    int64_t running = 0;
    std::optional<Incident> open;
    std::vector<uint8_t> killed_by;  // by EndReason: a pod of it was killed for it
  };
  Owner& owner(OwnerId id);
  void StopRunning(const Pod& pod);

  std::vector<Owner> owners_;
  std::vector<uint8_t> running_;  // by PodId: counted in its owner's running
  std::vector<double> recovered_s_;
  std::vector<std::vector<std::pair<SimTime, double>>> pools_;
  std::vector<std::pair<SimTime, FaultNotice>> notices_;
  std::vector<int64_t> pool_gpus_;
};

}  // namespace migsim
