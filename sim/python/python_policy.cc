#include "sim/python/python_policy.h"

#include <pybind11/stl.h>

#include <cmath>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "sim/python/python_view.h"

namespace migsim::python {
namespace py = pybind11;
namespace {

// Makes the handles of one call and invalidates them when it returns.
class CallScope {
 public:
  CallScope() : alive_(std::make_shared<bool>(true)) {}
  ~CallScope() { *alive_ = false; }
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;
  PyView View(const ClusterView& v) const { return {&v, alive_}; }
  PyPod Pod(const ResourceTable& r, const PodView& p, std::span<const std::string> names) const {
    return {&p, &r, alive_, names};
  }
  PyNode Node(const ClusterView& v, const NodeInfo& n) const {
    return {&n, &v.resources(), alive_};
  }

 private:
  Alive alive_;
};

// How deep this thread is in calls into Python policies (InPolicyCallback).
thread_local int callback_depth = 0;

class CallbackDepth {
 public:
  CallbackDepth() { ++callback_depth; }
  ~CallbackDepth() { --callback_depth; }
  CallbackDepth(const CallbackDepth&) = delete;
  CallbackDepth& operator=(const CallbackDepth&) = delete;
};

// Runs `call`, one call into the Python object. Whatever goes wrong — an exception the
// object raised, or an answer that is not what `contract` says (a TypeError naming it) —
// is kept in `error` and `fallback` returned: no exception crosses the engine, which is
// not written to unwind. Once `error` is set, `call` is not run again.
template <typename T, typename F>
T Guarded(std::optional<py::error_already_set>& error, const char* contract, F&& call, T fallback) {
  if (error) return fallback;
  try {
    const CallbackDepth depth;
    return call();
  } catch (py::error_already_set& e) {
    error = std::move(e);
  } catch (const py::cast_error& e) {
    const std::string message = std::string(contract) + " (" + e.what() + ")";
    PyErr_SetString(PyExc_TypeError, message.c_str());
    error = py::error_already_set();  // takes the error just set
  }
  return fallback;
}

// `answer` as a T, or a cast_error that shows the answer (pybind11's says only that the
// cast failed).
template <typename T>
T As(const py::object& answer) {
  try {
    return answer.cast<T>();
  } catch (const py::cast_error&) {
    std::string shown = py::repr(answer).cast<std::string>();
    if (shown.size() > 80) shown = shown.substr(0, 77) + "...";
    throw py::cast_error("got " + shown);
  }
}

// Throws cast_error unless `answer` is None, a node id or (node id, [(device, count)...]).
std::optional<Placement> Convert(const py::object& answer) {
  if (answer.is_none()) return std::nullopt;
  // A bool is an int to Python; as a node id it is surely a mistake (a filter's answer).
  if (py::isinstance<py::bool_>(answer))
    throw py::cast_error("got " + py::repr(answer).cast<std::string>());
  if (py::isinstance<py::int_>(answer)) return Placement{NodeId(As<uint32_t>(answer))};
  using Answer = std::pair<uint32_t, std::vector<std::pair<uint32_t, int32_t>>>;
  const auto pair = As<Answer>(answer);
  Placement placement{NodeId(pair.first)};
  for (const auto& [device, count] : pair.second) placement.devices.push_back({device, count});
  return placement;
}

}  // namespace

// The handles of the pod being placed: made once per Place and shared by the filter and
// score calls it makes, so that a scoring policy pays a Python call per node, not three
// new objects as well. They die (and refuse to be read) when Place returns.
struct PythonPolicy::PodCall {
  PodCall(const ClusterView& v, const PodView& p, std::span<const std::string> names)
      : view(&v),
        pod(&p),
        py_view(py::cast(scope.View(v))),
        py_pod(py::cast(scope.Pod(v.resources(), p, names))) {}
  const ClusterView* view;
  const PodView* pod;
  CallScope scope;
  py::object py_view, py_pod;
};

namespace {

// The bound method, or None: looked up once, not per call.
py::object Method(const py::object& policy, const char* name) {
  return py::hasattr(policy, name) ? py::object(policy.attr(name)) : py::object(py::none());
}

}  // namespace

bool InPolicyCallback() { return callback_depth > 0; }

PythonPolicy::PythonPolicy(py::object policy, std::vector<std::string> namespaces)
    : policy_(std::move(policy)),
      place_(Method(policy_, "place")),
      filter_(Method(policy_, "filter")),
      score_(Method(policy_, "score")),
      less_(Method(policy_, "less")),
      namespaces_(std::move(namespaces)) {
  name_ = py::hasattr(policy_, "name") ? py::str(policy_.attr("name")).cast<std::string>()
                                       : std::string("python");
}

PythonPolicy::~PythonPolicy() = default;

template <typename F>
auto PythonPolicy::WithPodCall(const ClusterView& view, const PodView& pod, F&& f) {
  if (current_ != nullptr && current_->view == &view && current_->pod == &pod) return f(*current_);
  PodCall fresh(view, pod, namespaces_);
  return f(fresh);
}

std::optional<Placement> PythonPolicy::Place(const ClusterView& view, const PodView& pod) {
  if (error_) return std::nullopt;
  PodCall call(view, pod, namespaces_);
  if (place_.is_none()) {
    current_ = &call;
    std::optional<Placement> placement = Policy::Place(view, pod);
    current_ = nullptr;
    // A score that raised reads as "no score", which the default takes for the first
    // feasible node: the pod stays pending instead.
    return error_ ? std::nullopt : placement;
  }
  const char* contract = "place() must return None, a node id or (node id, [(device, count), ...])";
  return Guarded<std::optional<Placement>>(
      error_, contract, [&] { return Convert(place_(call.py_view, call.py_pod)); }, std::nullopt);
}

bool PythonPolicy::Filter(const ClusterView& view, const PodView& pod, const NodeInfo& node) {
  if (filter_.is_none()) return !error_;
  return Guarded(
      error_, "filter() must return a bool",
      [&] {
        py::object answer = WithPodCall(view, pod, [&](const PodCall& c) {
          return filter_(c.py_view, c.py_pod, c.scope.Node(view, node));
        });
        // pybind11 reads None as false: here it is a forgotten return, not an answer.
        if (answer.is_none()) throw py::cast_error("got None");
        return As<bool>(answer);
      },
      false);
}

std::optional<double> PythonPolicy::Score(const ClusterView& view, const PodView& pod,
                                          const NodeInfo& node) {
  if (score_.is_none()) return std::nullopt;
  return Guarded<std::optional<double>>(
      error_, "score() must return a number or None",
      [&]() -> std::optional<double> {
        py::object s = WithPodCall(view, pod, [&](const PodCall& c) {
          return score_(c.py_view, c.py_pod, c.scope.Node(view, node));
        });
        if (s.is_none()) return std::nullopt;
        const auto score = As<double>(s);
        // NaN compares false with everything: the highest score would depend on node order.
        if (std::isnan(score)) throw py::cast_error("got NaN");
        return score;
      },
      std::nullopt);
}

namespace {

// less(a, b) as a QueueOrder. The policy outlives it (Policy::SuppliedQueueOrder).
class PythonQueueOrder final : public QueueOrder {
 public:
  PythonQueueOrder(PythonPolicy& policy, const ResourceTable& resources)
      : policy_(&policy), resources_(&resources) {}
  std::string_view name() const override { return "policy"; }
  bool Less(const PodView& a, const PodView& b) const override {
    return policy_->Less(*resources_, a, b);
  }
  // less may tell apart pods of one scheduling class (by creation, labels, ...).
  bool OrdersWithinClass() const override { return true; }

 private:
  PythonPolicy* policy_;
  const ResourceTable* resources_;
};

}  // namespace

std::unique_ptr<QueueOrder> PythonPolicy::SuppliedQueueOrder(const QueueNames& names) {
  if (less_.is_none() || names.resources == nullptr) return nullptr;
  return std::make_unique<PythonQueueOrder>(*this, *names.resources);
}

bool PythonPolicy::Less(const ResourceTable& resources, const PodView& a, const PodView& b) {
  return Guarded(
      error_, "less() must return a bool",
      [&] {
        const CallScope scope;
        py::object answer =
            less_(scope.Pod(resources, a, namespaces_), scope.Pod(resources, b, namespaces_));
        if (answer.is_none()) throw py::cast_error("got None");
        return As<bool>(answer);
      },
      false);
}

void RequireQueueOrder(Policy& policy, const std::string& why) {
  const ResourceTable none;
  if (policy.SuppliedQueueOrder({.resources = &none}) != nullptr) return;
  throw py::value_error(
      why + " takes the queue order from the policy, but policy '" + std::string(policy.name()) +
      "' supplies none (a Python policy supplies one with a less(a, b) "
      "method; a policy library with migsim_policy_queue_less; no built-in does)");
}

std::optional<py::error_already_set> PythonPolicy::TakeError() {
  std::optional<py::error_already_set> e = std::move(error_);
  error_.reset();
  return e;
}

}  // namespace migsim::python
