#pragma once
// A Policy whose decisions come from a Python object. Every method is optional:
//   place(view, pod)        -> None | node_id | (node_id, [(device_index, count), ...])
//   filter(view, pod, node) -> bool        (with the default place)
//   score(view, pod, node)  -> float|None  (with the default place; None: this policy
//                                           does not score, so this node wins at once)
//   name                    -> str         (default "python")
//   less(a, b)              -> bool        (the queue order, when the run takes the
//                                           policy's: scheduler.queue_order "policy" or
//                                           run(queue_order="policy"); a, b: pending pods)
// Without place, the API's default runs filter -> score -> highest -> the device plugin;
// the view and pod handles are then made once per pod, not per call.
// less must be a strict weak order that does not change while both pods wait (the queue is
// kept sorted by it); a bad one leaves the queue in some order, never unsafe.
// The engine validates every answer, as for any policy. An exception raised by the
// object, or an answer of the wrong type (a TypeError), stops its decisions — no method
// is called again and every later pod is left pending — and is kept for the caller to
// raise once the run returns (TakeError): the engine never sees a Python exception.
//
// REQUIRES: the GIL is held while the engine runs (the run is called from Python).

#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/policy/policy.h"

namespace migsim::python {

// True while this thread is inside a call into a Python policy's method (place, filter,
// score, less): the engine that called it is mid-run and must not be entered again.
bool InPolicyCallback();

class PythonPolicy final : public Policy {
 public:
  // `namespaces`: the run's (Scenario::namespaces), which pod handles name.
  PythonPolicy(pybind11::object policy, std::vector<std::string> namespaces);
  ~PythonPolicy() override;
  std::string_view name() const override { return name_; }
  std::optional<Placement> Place(const ClusterView& view, const PodView& pod) override;
  bool Filter(const ClusterView& view, const PodView& pod, const NodeInfo& node) override;
  std::optional<double> Score(const ClusterView& view, const PodView& pod,
                              const NodeInfo& node) override;
  // The order less(a, b) gives, or nullptr when the object has no `less`.
  std::unique_ptr<QueueOrder> SuppliedQueueOrder(const QueueNames& names) override;
  // less(a, b) on handles of the two pods; false once the object raised.
  bool Less(const ResourceTable& resources, const PodView& a, const PodView& b);
  // Whether the object raised (its decisions stopped); TakeError takes the exception.
  bool failed() const { return error_.has_value(); }
  // The exception the object raised, if any; cleared.
  std::optional<pybind11::error_already_set> TakeError();

 private:
  struct PodCall;
  // Calls f(PodCall&): Place's when (view, pod) are the ones it places, else fresh ones.
  template <typename F>
  auto WithPodCall(const ClusterView& view, const PodView& pod, F&& f);

  pybind11::object policy_;
  pybind11::object place_, filter_, score_, less_;  // bound methods, or None when absent
  std::vector<std::string> namespaces_;
  std::string name_;
  PodCall* current_ = nullptr;  // set during the default Place only
  std::optional<pybind11::error_already_set> error_;
};

// ValueError unless `policy` supplies a queue order, which `why` (the scenario's
// scheduler.queue_order "policy", or run's queue_order argument) asks of it.
void RequireQueueOrder(Policy& policy, const std::string& why);

}  // namespace migsim::python
