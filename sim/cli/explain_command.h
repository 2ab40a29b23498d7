#pragma once
// Commands that explain the hardware migsim models, from its catalog:
//   migsim gpus                 GPU models: memory, SMs, MIG slots, profiles
//   migsim profiles MODEL       a model's MIG profiles with their placements
//   migsim layouts MODEL        every maximal layout, drawn as memory slices
//   migsim nodes                node types: GPUs, vCPU, memory, prices, where and when
// Each takes `catalog_file`: "" for the built-ins alone, or a scenario or catalog file whose
// own GPU models and node types are shown beside them, marked "[scenario]" (exit code 2 with
// the loader's message when that file is bad). `json`: one JSON document (catalog_json.h)
// instead of the table, the rows a --scenario file defined marked "from_scenario".

#include <string>

namespace migsim {

int GpusCommand(const std::string& catalog_file = "", bool json = false);
// Exit code 2 for an unknown model (the message lists the models).
int ProfilesCommand(const std::string& model, const std::string& catalog_file = "",
                    bool json = false);
int LayoutsCommand(const std::string& model, bool all_profiles,
                   const std::string& catalog_file = "", bool json = false);
int NodesCommand(const std::string& catalog_file = "", bool json = false);

}  // namespace migsim
