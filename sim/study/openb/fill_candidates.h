#pragma once
// The nodes that may still host a request class of the fill experiment, kept so that a
// pod's filter costs what is still feasible, not the whole cluster.
//
// The fill has no departures (openb-protocol.md §2.2 step 10): a node's free CPU, memory
// and per-GPU milli only fall and its pod count only rises. So for one request — the same
// CPU, memory, GPU milli, GPU count and model constraint — a node that once fails the
// filter fails it for the rest of the run. Each class keeps the nodes that passed its last
// filter, in increasing node index; the next filter re-tests only those and drops the ones
// that fail. The answer is exactly the full scan's, in the same order.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace migsim {

class FillCandidates {
 public:
  explicit FillCandidates(size_t classes) : lists_(classes) {}

  // Appends to `out`, in increasing index, every node i < `nodes` that passes the filter
  // of class `cls` now: `admits(i)`, the part that never changes (the GPU model), and
  // `fits(i)`, the part resources decide. REQUIRES: for each class, a node that `fits`
  // rejected is rejected at every later call (resources only ever shrink), and `admits`
  // and `nodes` are the same at every call.
  template <typename Admits, typename Fits>
  void Collect(size_t cls, size_t nodes, Admits&& admits, Fits&& fits, std::vector<size_t>& out) {
    List& list = lists_[cls];
    if (!list.built) {
      list.built = true;
      for (size_t i = 0; i < nodes; ++i) {
        if (admits(i) && fits(i)) {
          list.nodes.push_back(static_cast<uint32_t>(i));
          out.push_back(i);
        }
      }
      return;
    }
    size_t kept = 0;
    for (const uint32_t i : list.nodes) {
      if (!fits(i)) continue;
      list.nodes[kept++] = i;
      out.push_back(i);
    }
    list.nodes.resize(kept);
  }

 private:
  struct List {
    bool built = false;
    std::vector<uint32_t> nodes;  // passed the class's last filter, increasing
  };
  std::vector<List> lists_;
};

}  // namespace migsim
