#include "sim/metrics/gpu_power.h"

#include <algorithm>

#include "sim/engine/observer.h"

namespace migsim {

GpuPower NodeGpuPower(const GpuModel& model, double gpus, double active, double busy,
                      double allocated_idle_watts) {
  return GpuEnergy(model, gpus, std::max(active - busy, 0.0), busy, allocated_idle_watts);
}

GpuPower GpuEnergy(const GpuModel& model, double gpu_seconds, double allocated_idle_weight_s,
                   double busy_weight_s, double allocated_idle_watts) {
  const double range = std::max(model.max_watts - model.idle_watts, 0.0);
  const double weight = static_cast<double>(kGpuWeight);
  return {.idle = gpu_seconds * model.idle_watts,
          .busy = range * busy_weight_s / weight,
          .allocated_idle = std::min(allocated_idle_watts, range) * allocated_idle_weight_s / weight};
}

}  // namespace migsim
