#pragma once
// The engine's pod records, in blocks of kBlockSize consecutive PodIds, so that the records
// of pods that are over can be given back (EngineConfig::release_ended_pods) and a run's
// memory follows the pods alive at a time, not every pod it ever had.
//
// A pod is over once it ended and left the scheduling queue (a pod deleted while pending
// stays queued until the queue reaches it): Done counts both. A block whose pods are all
// over may be released (Release): its records are freed, and reading a released pod gives
// Released(), a record that ended (kDeleted) with a generation no event carries, so that
// stale events and late lookups find it over. Writing to one is a bug (MIGSIM_CHECK).
// Without releases the store holds every pod, in PodId order, as a vector would.

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <span>
#include <vector>

#include "sim/core/check.h"
#include "sim/engine/pod.h"

namespace migsim {

class PodStore {
 public:
  static constexpr size_t kBlockBits = 10;
  static constexpr size_t kBlockSize = size_t{1} << kBlockBits;  // 1,024 pods, 192 KB

  // Pods ever added (the next PodId); released ones included.
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Pods whose records are held (added and not released).
  size_t held() const { return size_ - released_pods_; }
  // A new record, for PodId size() - 1 after the call.
  Pod& Add();
  bool released(size_t i) const { return blocks_[i >> kBlockBits] == nullptr; }
  const Pod& operator[](size_t i) const {
    const Pod* block = blocks_[i >> kBlockBits].get();
    return block != nullptr ? block[i & kMask] : Released();
  }
  Pod& operator[](size_t i) {
    Pod* block = blocks_[i >> kBlockBits].get();
    MIGSIM_CHECK(block != nullptr, "a released pod changed");
    return block[i & kMask];
  }
  const Pod& front() const { return (*this)[0]; }
  // One of a pod's two last uses: it ended, or it left the scheduling queue. True when
  // that made every pod of its block over (the block may then be released).
  bool Done(size_t i) {
    const size_t b = i >> kBlockBits;
    return ++done_[b] == 2 * kBlockSize;
  }
  // The records of block `b` (kBlockSize pods from PodId b * kBlockSize).
  std::span<const Pod> block(size_t b) const { return {blocks_[b].get(), kBlockSize}; }
  // Frees block `b`. REQUIRES: its pods are all over (Done returned true for it).
  void Release(size_t b);

  // The held records in PodId order (released blocks skipped).
  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Pod;
    using difference_type = std::ptrdiff_t;
    using pointer = const Pod*;
    using reference = const Pod&;
    const_iterator(const PodStore* store, size_t i) : store_(store), i_(i) { Skip(); }
    reference operator*() const { return (*store_)[i_]; }
    pointer operator->() const { return &(*store_)[i_]; }
    const_iterator& operator++() {
      ++i_;
      Skip();
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator was = *this;
      ++*this;
      return was;
    }
    bool operator==(const const_iterator& o) const { return i_ == o.i_; }

   private:
    void Skip() {
      while (i_ < store_->size_ && store_->released(i_)) i_ = ((i_ >> kBlockBits) + 1) << kBlockBits;
      if (i_ > store_->size_) i_ = store_->size_;
    }
    const PodStore* store_;
    size_t i_;
  };
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size_}; }

  // What a released pod reads as.
  static const Pod& Released();

 private:
  static constexpr size_t kMask = kBlockSize - 1;
  std::vector<std::unique_ptr<Pod[]>> blocks_;
  std::vector<uint16_t> done_;  // per block: ends plus departures from the queue
  size_t size_ = 0;
  size_t released_pods_ = 0;
};

}  // namespace migsim
