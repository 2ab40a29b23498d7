// `energy`: what a run's energy is priced and weighed at, and the power around the GPUs
// (README "Energy"). Every field is optional; an absent one keeps EnergySpec's cited default.

#include "sim/io/scenario_sections_json.h"

namespace migsim::io {

void LoadEnergy(LoadContext* ctx, const JsonRef& ref, EnergySpec* out) {
  ObjectReader r(ctx, ref,
                 {"price_per_kwh", "grid_gco2_per_kwh", "pue", "node_watts_per_vcpu",
                  "node_watts_per_gb", "allocated_idle_watts"});
  if (!r.valid()) return;
  out->price_per_kwh = r.Number("price_per_kwh", out->price_per_kwh, 0);
  out->grid_gco2_per_kwh = r.Number("grid_gco2_per_kwh", out->grid_gco2_per_kwh, 0);
  // PUE is facility energy over IT energy: at least 1 by definition.
  out->pue = r.Number("pue", out->pue, 1);
  out->node_watts_per_vcpu = r.Number("node_watts_per_vcpu", out->node_watts_per_vcpu, 0);
  out->node_watts_per_gb = r.Number("node_watts_per_gb", out->node_watts_per_gb, 0);
  out->allocated_idle_watts = r.Number("allocated_idle_watts", out->allocated_idle_watts, 0);
}

}  // namespace migsim::io
