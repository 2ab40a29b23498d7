#pragma once
// Internal to sim/io: what a fault or a failure process hits (faults_json.cc,
// fault_processes_json.cc).

#include <cstdint>
#include <vector>

#include "sim/io/json_reader.h"
#include "workloads/scenario.h"

namespace migsim::io {

// The node named by the string at `ref`, or nullopt after reporting an unknown name.
std::optional<uint32_t> FindNodeNamed(LoadContext* ctx, const JsonRef& ref,
                                      const ClusterSpec& cluster);
// The nodes of the pool named by the string at `ref`; empty after reporting an unknown name.
std::vector<uint32_t> FindPoolNodes(LoadContext* ctx, const JsonRef& ref,
                                    const ClusterSpec& cluster);
// A fault's target from `r`'s fields `nodes`, `node` (+ `gpus`), or `pool` (+ `fraction`
// or `count`); `per_gpu`: a pool's share counts GPUs (gpu-unhealthy), not nodes.
FaultTarget ReadFaultTarget(LoadContext* ctx, const ObjectReader& r, bool per_gpu,
                            const ClusterSpec& cluster);

}  // namespace migsim::io
