#include <algorithm>
#include <string>
#include <vector>

#include "sim/report/csv_field.h"
#include "sim/report/run_report.h"

namespace migsim {

std::string FormatEnergyCsv(const RunReport& report) {
  std::vector<std::string> models;
  for (const VariantResult& v : report.variants) {
    for (const ModelEnergy& m : v.energy.models) {
      if (std::find(models.begin(), models.end(), m.model) == models.end()) {
        models.push_back(m.model);
      }
    }
  }
  std::string out =
      "variant,kwh,gpu_kwh,allocated_idle_kwh,node_kwh,mean_watts,cost_usd,co2_kg,pue,"
      "price_per_kwh,grid_gco2_per_kwh";
  for (const std::string& m : models) out += "," + CsvField("gpu_kwh_" + m);
  out += "\n";
  for (const VariantResult& v : report.variants) {
    const EnergyMetrics& e = v.energy;
    out += CsvField(v.name);
    for (double x : {e.kwh, e.gpu_kwh, e.allocated_idle_kwh, e.node_kwh, e.mean_watts, e.cost,
                     e.co2_kg, e.pue, e.price_per_kwh, e.grid_gco2_per_kwh}) {
      out += "," + CsvFixed(x);
    }
    for (const std::string& name : models) {
      auto m = std::find_if(e.models.begin(), e.models.end(),
                            [&](const ModelEnergy& x) { return x.model == name; });
      out += "," + (m == e.models.end() ? std::string("0.000000") : CsvFixed(m->kwh));
    }
    out += "\n";
  }
  return out;
}

}  // namespace migsim
