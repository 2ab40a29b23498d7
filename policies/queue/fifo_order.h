#pragma once
// FIFO: pods in creation order, priorities ignored (the baseline queueing theory's M/M/c
// assumes).

#include "sim/policy/queue_order.h"

namespace migsim {

class FifoOrder final : public QueueOrder {
 public:
  std::string_view name() const override { return "fifo"; }
  bool Less(const PodView& a, const PodView& b) const override { return a.id < b.id; }
};

}  // namespace migsim
