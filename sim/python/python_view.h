#pragma once
// The read-only views a Python policy receives: thin handles on the engine's ClusterView,
// NodeInfo and PodView. They are valid until the call they were made for returns (the
// placement of the pod is decided, or less(a, b) answered); a handle kept longer raises
// RuntimeError instead of reading freed memory.

#include <pybind11/pybind11.h>

#include <memory>
#include <span>
#include <string>

#include "sim/policy/cluster_view.h"

namespace migsim::python {

// Shared by every handle made for one pod; set false once its placement is decided.
using Alive = std::shared_ptr<bool>;

struct PyNode {
  const NodeInfo* node;
  const ResourceTable* resources;
  Alive alive;
};

struct PyPod {
  const PodView* pod;
  const ResourceTable* resources;
  Alive alive;
  std::span<const std::string> namespaces{};  // names PodView::namespace_index
};

// view.nodes: a sequence that makes a node's handle only when it is read, so that a
// policy stopping at the first node that fits does not pay for the others.
struct PyNodes {
  const ClusterView* view;
  Alive alive;
};

struct PyView {
  const ClusterView* view;
  Alive alive;
};

// Registers Node, Pod and View in `m`.
void BindViews(pybind11::module_& m);

}  // namespace migsim::python
