#include "sim/python/python_view.h"

#include <pybind11/stl.h>

#include <stdexcept>

namespace migsim::python {
namespace py = pybind11;
namespace {

void Check(const Alive& alive) {
  if (!*alive) throw std::runtime_error("a migsim view is valid only during the call");
}

const NodeInfo& N(const PyNode& n) { return Check(n.alive), *n.node; }
const PodView& P(const PyPod& p) { return Check(p.alive), *p.pod; }

// Counts by resource name, leaving out zeros.
py::dict ByName(const std::vector<int32_t>& counts, const ResourceTable& resources) {
  py::dict out;
  for (size_t r = 0; r < counts.size(); ++r) {
    if (counts[r] != 0)
      out[py::str(resources.name(ResourceId(static_cast<uint32_t>(r))))] = counts[r];
  }
  return out;
}

py::list Devices(const PyNode& n) {
  const NodeInfo& node = N(n);
  py::list out;
  for (const DeviceInfo& d : node.devices) {
    py::dict dev;
    dev["gpu"] = d.gpu;
    dev["mig_profile"] = d.mig ? py::object(py::str(node.gpu_model->profiles[d.mig->profile].name))
                               : py::object(py::none());
    dev["mig_start"] = d.mig ? py::object(py::int_(d.mig->start)) : py::object(py::none());
    dev["resource"] = n.resources->name(d.resource);
    dev["capacity"] = d.capacity;
    dev["used"] = d.used;
    dev["shared"] = d.shared;
    dev["fractional"] = d.fractional;
    out.append(dev);
  }
  return out;
}

void BindNode(py::module_& m) {
  py::class_<PyNode>(m, "Node",
                     "A node as a scheduler plugin sees it (read-only, until the pod is placed)")
      .def_property_readonly("id", [](const PyNode& n) { return N(n).id.value(); })
      .def_property_readonly("name", [](const PyNode& n) { return N(n).name; })
      .def_property_readonly("labels",
                             [](const PyNode& n) {
                               py::dict out;
                               for (const auto& [k, v] : N(n).labels) out[py::str(k)] = v;
                               return out;
                             })
      .def_property_readonly("schedulable", [](const PyNode& n) { return N(n).schedulable; })
      .def_property_readonly("mig_pending", [](const PyNode& n) { return N(n).mig_pending; })
      .def_property_readonly("cpu_milli_allocatable",
                             [](const PyNode& n) { return N(n).cpu_milli_allocatable; })
      .def_property_readonly("cpu_milli_requested",
                             [](const PyNode& n) { return N(n).cpu_milli_requested; })
      .def_property_readonly("memory_mib_allocatable",
                             [](const PyNode& n) { return N(n).memory_mib_allocatable; })
      .def_property_readonly("memory_mib_requested",
                             [](const PyNode& n) { return N(n).memory_mib_requested; })
      .def_property_readonly("allocatable",
                             [](const PyNode& n) { return ByName(N(n).allocatable, *n.resources); })
      .def_property_readonly("requested",
                             [](const PyNode& n) { return ByName(N(n).requested, *n.resources); })
      .def_property_readonly("gpu_model",
                             [](const PyNode& n) {
                               return N(n).gpu_model ? py::object(py::str(N(n).gpu_model->name))
                                                     : py::object(py::none());
                             })
      .def_property_readonly("devices", &Devices)
      .def_property_readonly("pods", [](const PyNode& n) {
        py::list out;
        for (const BoundPod& b : N(n).pods) out.append(b.id.value());
        return out;
      });
}

void BindPod(py::module_& m) {
  py::class_<PyPod>(m, "Pod",
                    "A pending pod as the scheduler sees it (read-only, until the pod is placed)")
      .def_property_readonly("id", [](const PyPod& p) { return P(p).id.value(); })
      .def_property_readonly("created_s", [](const PyPod& p) { return P(p).created.seconds(); })
      .def_property_readonly("cpu_milli", [](const PyPod& p) { return P(p).requests->cpu_milli; })
      .def_property_readonly("memory_mib", [](const PyPod& p) { return P(p).requests->memory_mib; })
      .def_property_readonly("requests",
                             [](const PyPod& p) {
                               py::dict out;
                               for (const ResourceRequest& r : P(p).requests->extended) {
                                 out[py::str(p.resources->name(r.resource))] = r.count;
                               }
                               return out;
                             })
      .def_property_readonly("pending_alike", [](const PyPod& p) { return P(p).pending_alike; })
      .def_property_readonly("priority", [](const PyPod& p) { return P(p).priority; })
      .def_property_readonly("run_estimate_s",
                             [](const PyPod& p) {
                               const std::optional<SimTime>& e = P(p).run_estimate;
                               return e ? py::object(py::float_(e->seconds()))
                                        : py::object(py::none());
                             })
      .def_property_readonly("namespace",
                             [](const PyPod& p) {
                               const auto ns = static_cast<size_t>(P(p).namespace_index);
                               return ns < p.namespaces.size() ? p.namespaces[ns]
                                                               : std::string("default");
                             })
      .def_property_readonly("labels", [](const PyPod& p) {
        py::dict out;
        if (P(p).labels != nullptr) {
          for (const auto& [k, v] : *P(p).labels) out[py::str(k)] = v;
        }
        return out;
      });
}

}  // namespace

void BindViews(py::module_& m) {
  BindNode(m);
  BindPod(m);
  // __len__ and __getitem__ make it a sequence: `for node in view.nodes` and indexing work.
  py::class_<PyNodes>(m, "Nodes", "The nodes, by id (read-only, until the pod is placed)")
      .def("__len__", [](const PyNodes& n) { return Check(n.alive), n.view->nodes().size(); })
      .def("__getitem__", [](const PyNodes& n, int64_t i) {
        Check(n.alive);
        const auto size = static_cast<int64_t>(n.view->nodes().size());
        if (i < 0) i += size;
        if (i < 0 || i >= size) throw py::index_error("node index out of range");
        return PyNode{&n.view->nodes()[static_cast<size_t>(i)], &n.view->resources(), n.alive};
      });
  py::class_<PyView>(m, "View",
                     "The cluster as the scheduler sees it (read-only, until the pod is placed)")
      .def_property_readonly(
          "now_s", [](const PyView& v) { return Check(v.alive), v.view->now().seconds(); })
      .def_property_readonly("nodes",
                             [](const PyView& v) {
                               Check(v.alive);
                               return PyNodes{v.view, v.alive};
                             })
      .def(
          "fits",
          [](const PyView& v, const PyPod& pod, const PyNode& node) {
            Check(v.alive);
            return v.view->Fits(P(pod), N(node));
          },
          "True when the pod passes the scheduler's fit on the node");
}

}  // namespace migsim::python
