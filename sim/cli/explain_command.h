#pragma once
// Commands that explain the hardware migsim models, from its catalog:
//   migsim gpus                 GPU models: memory, SMs, MIG slots, profiles
//   migsim profiles MODEL       a model's MIG profiles with their placements
//   migsim layouts MODEL        every maximal layout, drawn as memory slices
//   migsim nodes                node types: GPUs, vCPU, memory, price

#include <string>

namespace migsim {

int GpusCommand();
// Exit code 2 for an unknown model (the message lists the models).
int ProfilesCommand(const std::string& model);
int LayoutsCommand(const std::string& model, bool all_profiles);
int NodesCommand();

}  // namespace migsim
