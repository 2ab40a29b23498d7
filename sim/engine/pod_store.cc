#include "sim/engine/pod_store.h"

#include <limits>

namespace migsim {

Pod& PodStore::Add() {
  const size_t b = size_ >> kBlockBits;
  if (b == blocks_.size()) {
    blocks_.push_back(std::make_unique<Pod[]>(kBlockSize));
    done_.push_back(0);
  }
  return blocks_[b][size_++ & kMask];
}

void PodStore::Release(size_t b) {
  MIGSIM_CHECK(b < blocks_.size() && blocks_[b] != nullptr && done_[b] == 2 * kBlockSize,
               "a block of pods released before its pods were over");
  blocks_[b].reset();
  released_pods_ += kBlockSize;
}

const Pod& PodStore::Released() {
  static const Pod released = [] {
    Pod p;
    p.phase = PodPhase::kDeleted;
    p.reason = EndReason::kDeleted;
    p.generation = std::numeric_limits<uint32_t>::max();
    return p;
  }();
  return released;
}

}  // namespace migsim
