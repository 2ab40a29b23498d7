#pragma once
// The summary table's energy rows (README "Energy (every run)", "Outputs"): facility, GPU,
// allocated-idle and node-overhead kWh, mean power, cost and CO2 of every variant, and each
// GPU model's kWh when a variant's cluster has more than one model.

#include <string>
#include <utility>
#include <vector>

#include "sim/study/run.h"

namespace migsim {

// (label, a cell per variant) rows, in table order; "-" where a variant has no such model.
std::vector<std::pair<std::string, std::vector<std::string>>> EnergyRows(
    const std::vector<VariantResult>& variants);

// "(energy at PUE 1, $0.146 per kWh, 366 g CO2 per kWh)\n": what the rows were computed at,
// one line per distinct setting among the variants.
std::string EnergyNote(const std::vector<VariantResult>& variants);

}  // namespace migsim
