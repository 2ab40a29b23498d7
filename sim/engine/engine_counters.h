#pragma once
// What the engine's own mechanisms counted during a run (Engine::counters()): preemption,
// kills by cause, the faults cluster controllers recorded, DRA's dynamic MIG and the MIG
// manager's windows. The controllers' own results are theirs (FindController).

#include <array>
#include <cstdint>

#include "sim/engine/pod.h"

namespace migsim {

struct EngineCounters {
  // Pods evicted by preemption, and the GPU time they held that no checkpoint kept (from
  // bind to the end of the grace period, less the running time their last checkpoint
  // covers), in GPU-seconds (Pod::gpus).
  int64_t preemptions = 0;
  double preempted_gpu_seconds = 0;
  // Pods killed, by cause (indexed by EndReason: preempted, node lost, GPU failed, evicted,
  // node removed, device lost), counted where each kill happens.
  std::array<int64_t, kEndReasonCount> killed{};
  // The faults that hit (a node or a GPU each), as cluster controllers recorded them
  // (ClusterApi::RecordFault: the run budget counts them), and the GPU time the pods killed
  // by faults held that no checkpoint kept (as for preemption), in GPU-seconds.
  int64_t fault_hits = 0;
  double fault_gpu_seconds = 0;
  // DRA dynamic MIG: instances created at allocation and destroyed at release, and the
  // creation time pods waited for (instances x the pool's mig_create), in seconds.
  int64_t mig_instances_created = 0;
  int64_t mig_instances_destroyed = 0;
  double mig_creation_seconds = 0;
  // MIG manager windows opened: scripted relabels and policies' MigReconfigurations that
  // began (each withdraws a node's GPUs for its window).
  int64_t mig_windows = 0;

  double gpu_hours_lost_to_preemption() const { return preempted_gpu_seconds / 3600; }
  double gpu_hours_lost_to_faults() const { return fault_gpu_seconds / 3600; }
};

}  // namespace migsim
