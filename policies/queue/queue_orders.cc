#include "policies/queue/queue_orders.h"

#include "policies/queue/fair_share_order.h"
#include "policies/queue/fifo_order.h"
#include "policies/queue/las_order.h"
#include "policies/queue/sjf_order.h"
#include "policies/queue/srtf_order.h"
#include "sim/core/check.h"

namespace migsim {

const std::vector<QueueOrderInfo>& QueueOrderCatalog() {
  static const std::vector<QueueOrderInfo> catalog = {
      {"priority",
       "kube-scheduler's PrioritySort (the default): higher priority first, then the older pod"},
      {"fifo", "creation order, whatever the priority"},
      {"sjf",
       "shortest job first: the shortest run-time estimate first (a trace's or generator's "
       "run time, else the job class's on a whole GPU; pods without one last), then higher "
       "priority, then the older pod; non-preemptive"},
      {"fair-share",
       "Dominant Resource Fairness across namespaces: the next pod from the namespace whose "
       "dominant share of the cluster (bound requests over capacity, max over cpu, memory and "
       "each extended resource) over its weight (scheduler.fair_share.weights, default 1) is "
       "smallest; FIFO within a namespace; non-preemptive"},
      {"las",
       "least attained service, Tiresias' discretised 2D-LAS: queues split by attained GPU-seconds "
       "(scheduler.las.thresholds_gpu_s, default [3600]), highest first, FIFO within; "
       "preemptive (a pod of a higher queue evicts one of a lower); optional promotion of "
       "pods waiting longer than scheduler.las.promote_after_s"},
      {"srtf",
       "shortest remaining time first: the least run-time estimate left (less the resumed "
       "part) first; preemptive (a pending pod evicts a bound one with more left to run)"},
      {kPolicyQueueOrder,
       "the order the scenario's policy supplies: a policy library's migsim_policy_queue_less "
       "(plugin ABI version 2) or a Python policy's less(a, b); pods it leaves equivalent go "
       "in creation order; non-preemptive. A policy that supplies none is a loader error"},
  };
  return catalog;
}

std::vector<std::string> QueueOrderNames() {
  std::vector<std::string> names;
  for (const QueueOrderInfo& info : QueueOrderCatalog()) names.emplace_back(info.name);
  return names;
}

namespace {

std::vector<double> WeightsByNamespace(const QueueOrderParams& params) {
  std::vector<double> weights;
  for (const auto& [ns, weight] : params.fair_share_weights) {
    if (weights.size() <= static_cast<size_t>(ns)) weights.resize(static_cast<size_t>(ns) + 1, 1);
    weights[static_cast<size_t>(ns)] = weight;
  }
  return weights;
}

}  // namespace

std::unique_ptr<QueueOrder> MakeQueueOrder(std::string_view name, const QueueOrderParams& params) {
  if (name == "priority" || name.empty()) return nullptr;
  if (name == "fifo") return std::make_unique<FifoOrder>();
  if (name == "sjf") return std::make_unique<SjfOrder>();
  if (name == "fair-share") return std::make_unique<FairShareOrder>(WeightsByNamespace(params));
  if (name == "las") {
    return std::make_unique<LasOrder>(params.las_thresholds_gpu_s, params.las_promote_after);
  }
  if (name == "srtf") return std::make_unique<SrtfOrder>();
  MIGSIM_CHECK(false, "unknown queue order");
  return nullptr;
}

}  // namespace migsim
