#include "sim/report/energy_table_rows.h"

#include <algorithm>

#include "sim/core/text.h"

namespace migsim {

// Energy rows (EnergyMetrics) of every variant, and each GPU model's kWh when a variant's
// cluster has more than one model.
std::vector<std::pair<std::string, std::vector<std::string>>> EnergyRows(
    const std::vector<VariantResult>& variants) {
  std::vector<std::string> models;
  for (const VariantResult& v : variants) {
    if (v.energy.models.size() < 2) continue;
    for (const ModelEnergy& m : v.energy.models) {
      if (std::find(models.begin(), models.end(), m.model) == models.end()) {
        models.push_back(m.model);
      }
    }
  }
  std::vector<std::pair<std::string, std::vector<std::string>>> out = {
      {"energy (kWh)", {}},
      {"energy GPU (kWh)", {}},
      {"energy alloc-idle (kWh)", {}},
      {"energy nodes (kWh)", {}},
      {"power mean (W)", {}},
      {"energy cost ($)", {}},
      {"CO2 (kg)", {}}};
  for (const std::string& m : models) out.push_back({"kWh " + m, {}});
  for (const VariantResult& v : variants) {
    const EnergyMetrics& e = v.energy;
    std::vector<std::string> cells = {FormatFixed(e.kwh, 3),
                                      FormatFixed(e.gpu_kwh, 3),
                                      FormatFixed(e.allocated_idle_kwh, 3),
                                      FormatFixed(e.node_kwh, 3),
                                      FormatFixed(e.mean_watts, 1),
                                      FormatFixed(e.cost, 2),
                                      FormatFixed(e.co2_kg, 2)};
    for (const std::string& name : models) {
      auto m = std::find_if(e.models.begin(), e.models.end(),
                            [&](const ModelEnergy& x) { return x.model == name; });
      cells.push_back(m == e.models.end() ? "-" : FormatFixed(m->kwh, 3));
    }
    for (size_t r = 0; r < cells.size(); ++r) out[r].second.push_back(cells[r]);
  }
  return out;
}

// "energy at PUE 1, $0.146 per kWh, 366 g CO2 per kWh": what the energy rows were computed
// at, once per distinct setting.
std::string EnergyNote(const std::vector<VariantResult>& variants) {
  std::vector<std::string> notes;
  for (const VariantResult& v : variants) {
    const EnergyMetrics& e = v.energy;
    std::string note = "energy at PUE " + FormatShortest(e.pue) + ", $" +
                       FormatShortest(e.price_per_kwh) + " per kWh, " +
                       FormatShortest(e.grid_gco2_per_kwh) + " g CO2 per kWh";
    if (std::find(notes.begin(), notes.end(), note) == notes.end()) notes.push_back(note);
  }
  std::string out;
  for (const std::string& note : notes) out += "(" + note + ")\n";
  return out;
}

}  // namespace migsim
