#pragma once
// A min-queue of timed events ordered by (time, insertion sequence).
//
// The sequence number makes the order of simultaneous events the order in which they
// were scheduled, so a run never depends on heap internals. Events are small values
// stored in one vector-backed heap: pushing and popping does not allocate once the vector
// has grown to the run's peak size. The heap is 4-ary: half a binary heap's depth, and a
// node's four children share two or three cache lines, which is what a pop waits on in a
// heap of tens of thousands of events.

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
    SiftUp(heap_.size() - 1);
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
    Entry top = std::move(heap_.front());
    if (heap_.size() > 1) {
      heap_.front() = std::move(heap_.back());
      heap_.pop_back();
      SiftDown();
    } else {
      heap_.pop_back();
    }
    return top;
  }

  // Every queued entry, in heap order (not time order).
  std::span<const Entry> entries() const { return heap_; }

  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }
  // Events pushed since construction (each is popped once, run or dropped as stale).
  uint64_t pushed() const { return next_seq_; }
  void Reserve(size_t n) { heap_.reserve(n); }

 private:
  static constexpr size_t kArity = 4;  // children of heap_[i]: heap_[4i + 1 .. 4i + 4]

  // The order of the queue; sequence numbers are unique, so it is total.
  static bool Earlier(const Entry& a, const Entry& b) {
    if (a.time != b.time) return a.time < b.time;
    return a.seq < b.seq;
  }
  // Moves heap_[hole] up past its later ancestors.
  void SiftUp(size_t hole) {
    Entry e = std::move(heap_[hole]);
    while (hole > 0) {
      const size_t parent = (hole - 1) / kArity;
      if (!Earlier(e, heap_[parent])) break;
      heap_[hole] = std::move(heap_[parent]);
      hole = parent;
    }
    heap_[hole] = std::move(e);
  }
  // Moves the root down past its earlier descendants.
  void SiftDown() {
    const size_t n = heap_.size();
    size_t hole = 0;
    Entry e = std::move(heap_[0]);
    for (;;) {
      const size_t first = kArity * hole + 1;
      if (first >= n) break;
      size_t best = first;
      const size_t end = std::min(first + kArity, n);
      for (size_t c = first + 1; c < end; ++c) {
        if (Earlier(heap_[c], heap_[best])) best = c;
      }
      if (!Earlier(heap_[best], e)) break;
      heap_[hole] = std::move(heap_[best]);
      hole = best;
    }
    heap_[hole] = std::move(e);
  }

  std::vector<Entry> heap_;
  uint64_t next_seq_ = 0;
};

}  // namespace migsim
