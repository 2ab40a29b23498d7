#pragma once
// What a scenario's variant would simulate, without running it: its policy, seed and
// horizon, its nodes and what their device plugin advertises, its node groups, shared
// claims and workloads, and the warnings for pods no node can hold. `migsim validate`
// prints them (FormatVariantFacts); migsim.validate returns them.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "workloads/scenario.h"

namespace migsim {

// Nodes of one type, MIG config and advertisement: listed once, with their count.
struct NodeGroupFacts {
  int count = 0;
  std::string type;
  std::string mig_config;  // "" when the nodes have none
  // "nvidia.com/gpu: 8", "no GPUs", "device plugin refuses the node: ...", or for a DRA
  // pool "DRA, 8 GPUs in a ResourceSlice (...)".
  std::string advertised;
};

struct VariantFacts {
  std::string name;
  // The policy's label, " from <library>" for a plugin, then its parameters' JSON when
  // it has any.
  std::string policy;
  uint64_t seed = 0;
  std::optional<double> horizon_s;  // none: the run goes on until nothing is left to do
  std::vector<NodeGroupFacts> nodes;
  // "at 60.0 s: node-3 relabelled all-1g.10gb (pending 30.0 s)", one per reconfiguration.
  std::vector<std::string> reconfigurations;
  std::string provisioner;  // "Karpenter", "Cluster Autoscaler", or "" without node groups
  // One line per node group ("a10g: 0 to 16 nodes, 0 at the start; ..."), then one of the
  // provisioner's settings.
  std::vector<std::string> node_groups;
  // "<claim>: request(s) <names>; MPS, 50 % of the SMs per pod" or "...; time-sliced".
  std::vector<std::string> shared_claims;
  // "Job train: 4 completion(s), parallelism 2", one per workload in file order.
  std::vector<std::string> workloads;
  std::vector<std::string> warnings;  // UnschedulableWarnings
};

VariantFacts DescribeVariant(const std::string& name, const Scenario& scenario);

// The variant's part of `migsim validate`'s output, from its "variant <name> (...)" line.
std::string FormatVariantFacts(const VariantFacts& facts);

}  // namespace migsim
