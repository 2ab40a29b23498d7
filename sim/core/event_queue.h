#pragma once
// A min-queue of timed events ordered by (time, insertion sequence).
//
// The sequence number makes the order of simultaneous events the order in which they
// were scheduled, so a run never depends on heap internals. Events are small values
// stored in one vector-backed binary heap: pushing and popping does not allocate once
// the vector has grown to the run's peak size.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "sim/core/sim_time.h"

namespace migsim {

template <typename Payload>
class EventQueue {
 public:
  struct Entry {
    SimTime time;
    uint64_t seq;
    Payload payload;
  };

  void Push(SimTime time, Payload payload) {
    heap_.push_back(Entry{time, next_seq_++, std::move(payload)});
    std::push_heap(heap_.begin(), heap_.end(), Later);
  }

  // The time of the earliest event, or nullopt when the queue is empty.
  std::optional<SimTime> NextTime() const {
    if (heap_.empty()) return std::nullopt;
    return heap_.front().time;
  }

  // REQUIRES: !empty()
  const Entry& Top() const { return heap_.front(); }

  // REQUIRES: !empty()
  Entry Pop() {
    std::pop_heap(heap_.begin(), heap_.end(), Later);
    Entry e = std::move(heap_.back());
    heap_.pop_back();
    return e;
  }

  // Every queued entry, in heap order (not time order).
  std::span<const Entry> entries() const { return heap_; }

  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }
  void Reserve(size_t n) { heap_.reserve(n); }

 private:
  // std heap functions build a max-heap; "later" as less-than makes the earliest the top.
  static bool Later(const Entry& a, const Entry& b) {
    if (a.time != b.time) return a.time > b.time;
    return a.seq > b.seq;
  }

  std::vector<Entry> heap_;
  uint64_t next_seq_ = 0;
};

}  // namespace migsim
