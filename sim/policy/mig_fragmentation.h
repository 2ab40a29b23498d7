#pragma once
// MIG fragmentation of a node, as stranded compute slices: slices of its MIG-enabled GPUs
// that are free but outside the largest GPU instance each GPU can still give one pod.
// Like external fragmentation of memory (1 - largest free block / free), per GPU:
//   - MIG devices that exist beforehand (device plugin, or static DRA): the free slices
//     are those of unoccupied GPU instances; the largest is the biggest unoccupied one.
//   - DRA dynamic MIG: the free slices are those no instance holds; the largest is the
//     biggest classic profile NVIDIA's placement rules allow next to the instances.
// A GPU handed out whole, or with MIG off, has none.

#include <cstdint>

#include "sim/policy/cluster_view.h"

namespace migsim {

struct MigSlices {
  int32_t stranded = 0;
  int32_t free = 0;
  int32_t total = 0;  // compute slices of the node's MIG-enabled GPUs
};

MigSlices StrandedMigSlices(const NodeInfo& node);

}  // namespace migsim
