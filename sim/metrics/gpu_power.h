#pragma once
// The power of a node's GPUs from what the engine knows of them (README "Energy"): each
// GPU draws its model's idle power; capacity kept busy computing adds its share of the
// dynamic range (max - idle), so a MIG instance of g of G slices busy at duty d adds
// g / G x d of it; active capacity not computing (a device whose process holds its CUDA
// context between kernels: duty < 1, or the idle share of a time-sliced GPU) adds the
// allocated-idle step. A device only allocated (its pod's container not started) has no
// context yet and draws idle.

#include <cstdint>

#include "sim/cluster/gpu_model.h"

namespace migsim {

struct GpuPower {
  double idle = 0;            // W: every GPU at its idle power
  double busy = 0;            // W above idle: the capacity computing
  double allocated_idle = 0;  // W above idle: the capacity allocated, not computing
  double total() const { return idle + busy + allocated_idle; }
};

// `gpus` GPUs of `model` with `active` GPU weight running a process and `busy` kept busy
// (units of EngineObserver::OnNodeGpuUse). Active capacity beyond the busy one is
// allocated-idle; `allocated_idle_watts` per GPU is capped at max - idle, so that no GPU
// draws more than its power limit.
GpuPower NodeGpuPower(const GpuModel& model, double gpus, double active, double busy,
                      double allocated_idle_watts);

// The power is linear in its inputs: given them integrated over time (GPU-seconds up,
// allocated-idle and busy weight x seconds), the same formula gives the energy in joules.
GpuPower GpuEnergy(const GpuModel& model, double gpu_seconds, double allocated_idle_weight_s,
                   double busy_weight_s, double allocated_idle_watts);

}  // namespace migsim
