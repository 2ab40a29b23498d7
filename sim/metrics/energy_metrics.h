#pragma once
// A run's energy (definitions in README "Energy (every run)"): the GPUs' (with the part drawn while
// held by a running pod but not computing, apart), the nodes' overhead, their sum at the facility
// (x PUE), its cost and its CO2. Collected by EnergyRecorder, an observer, in every run.
//
// Power is piecewise constant between the engine's notifications, so the recorder
// integrates it exactly: at each change it adds power x elapsed time for the one GPU
// model (or the node overhead) that changed, O(1) per notification.

#include <string>
#include <vector>

#include "sim/engine/cluster_spec.h"
#include "sim/engine/observer.h"
#include "sim/metrics/energy_spec.h"
#include "sim/metrics/gpu_power.h"

namespace migsim {

// The GPUs of one model, over a run.
struct ModelEnergy {
  std::string model;  // the GPU model's catalog name
  double kwh = 0;     // its GPUs' energy, allocated-idle included, before PUE
};

struct EnergyMetrics {
  double kwh = 0;                 // at the facility: (gpu_kwh + node_kwh) x pue
  double gpu_kwh = 0;             // the GPU boards, allocated-idle included
  double allocated_idle_kwh = 0;  // of gpu_kwh: above idle, held by a running pod, not computing
  double node_kwh = 0;            // node overhead (CPUs, memory, fans, NICs) of nodes up
  double mean_watts = 0;          // kwh over the run's time; 0 for a run of no time
  double cost = 0;                // kwh x price_per_kwh, USD
  double co2_kg = 0;              // kwh x grid_gco2_per_kwh / 1000
  double pue = 1, price_per_kwh = 0, grid_gco2_per_kwh = 0;  // what it was computed at
  std::vector<ModelEnergy> models{};  // GPU models of the cluster, in node order
};

class EnergyRecorder final : public EngineObserver {
 public:
  // `cluster` and `spec` must outlive the recorder. Every node is up from t = 0 except the
  // node groups' nodes beyond their `initial` ones (absent until launched). Give it to
  // Engine::SetNodeGpuUseObserver, and with node groups to Engine::AddObserver as well.
  EnergyRecorder(const ClusterSpec& cluster, const EnergySpec& spec);
  void OnNodeGpuUse(SimTime now, NodeId node, double active, double busy) override;
  void OnNodeScaled(SimTime now, NodeId node, uint32_t group, NodeScaleChange change) override;

  // The energy from t = 0 to `end` (the end of the run). REQUIRES: no notification after `end`.
  EnergyMetrics Finish(SimTime end) const;

 private:
  // What draws power, piecewise constant: GPUs up and their allocated-idle and busy weight
  // (a GPU model's meter: GpuEnergy turns the integrals into joules), or the nodes' overhead
  // watts (in `gpus`). Integrated as value(end) x end - sum of (change x time of change),
  // so a change costs two multiplications and no look at the time before.
  struct Meter {
    double gpus = 0, held = 0, busy = 0;
    double gpus_s = 0, held_s = 0, busy_s = 0;  // minus the changes x their times
    void ChangeGpus(double seconds, double d_gpus) {
      gpus += d_gpus;
      gpus_s -= d_gpus * seconds;
    }
    void ChangeUse(double seconds, double d_held, double d_busy) {
      held += d_held;
      busy += d_busy;
      held_s -= d_held * seconds;
      busy_s -= d_busy * seconds;
    }
    // The integrals over [0, end].
    Meter Integrated(double end) const {
      Meter m = *this;
      m.gpus_s += gpus * end;
      m.held_s += held * end;
      m.busy_s += busy * end;
      return m;
    }
  };
  struct Node {
    int32_t model = -1;  // index into models_, -1 for a node without GPUs
    int gpus = 0;
    double overhead_watts = 0;
    bool up = true;
    double held = 0, busy = 0;  // allocated-idle (active, not busy) and busy GPU weight
  };
  // The node comes up or goes down: its GPUs and overhead join or leave the meters.
  void SetUp(SimTime now, Node& node, bool up);

  const EnergySpec* spec_;
  std::vector<const GpuModel*> gpu_models_;  // by model index
  std::vector<Meter> models_;                // by model index
  Meter overhead_;                           // the nodes' overhead watts, in `gpus`
  std::vector<Node> nodes_;
};

}  // namespace migsim
