#pragma once
// What a run's energy is priced and weighed at, and the power the GPU models' figures
// leave out: the node around the GPUs and the step a GPU takes when a pod holds it
// (README "Energy"). The scenario's `energy` section sets them; each default is cited.

namespace migsim {

struct EnergySpec {
  // USD per kWh: the US average commercial price, 14.6 cents (EIA Electric Power Monthly,
  // Table 5.6.A, national commercial average as republished 2026-04-26).
  double price_per_kwh = 0.146;
  // g CO2 per kWh: US utility-scale generation in 2023, 1,532 million t of CO2 over
  // 4,183,271 million kWh = 366 g (EIA FAQ "How much carbon dioxide is produced per
  // kilowatthour of U.S. electricity generation?").
  double grid_gco2_per_kwh = 366;
  // Power usage effectiveness: facility energy / IT energy. 1: the IT energy alone.
  double pue = 1;
  // Node overhead (CPUs, memory, fans, NICs) of a node that is up, from its type's vCPUs
  // and memory: Cloud Carbon Footprint's AWS coefficients, 0.74 W per vCPU idle and 3.5 W
  // at full load, at its default 50 % CPU utilization (0.74 + 0.5 x 2.76 = 2.12 W), and
  // 0.392 W per GB of memory (MEMORY_COEFFICIENT 0.000392 kWh per GB-hour).
  double node_watts_per_vcpu = 2.12;
  double node_watts_per_gb = 0.392;
  // Watts a GPU draws above idle while a running pod holds it without computing: the CUDA
  // context's DVFS step, "+26-66 W over bare idle (26-50 W on HBM architectures, 66 W on
  // GDDR6)" (Vadari, "The Model Parking Tax", arXiv 2605.23918, 2026); 38 W is the middle
  // of the HBM range. Capped per model at max_watts - idle_watts.
  double allocated_idle_watts = 38;
};

}  // namespace migsim
