#include "workloads/workflow_graph.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/depth_first_search.hpp>
#include <string>

namespace migsim {
namespace {

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;

// Edge dependency -> dependent, so a topological order runs dependencies first.
Graph BuildGraph(const WorkflowSpec& workflow) {
  Graph g(workflow.steps.size());
  for (size_t s = 0; s < workflow.steps.size(); ++s) {
    for (int dep : workflow.steps[s].depends) boost::add_edge(dep, s, g);
  }
  return g;
}

// Records the tree (for the path back) and the first back edge: it closes a cycle.
struct CycleFinder : boost::default_dfs_visitor {
  std::vector<int>* parent = nullptr;
  std::pair<int, int>* found = nullptr;
  template <typename Edge, typename G>
  void tree_edge(Edge e, const G& g) const {
    (*parent)[boost::target(e, g)] = static_cast<int>(boost::source(e, g));
  }
  template <typename Edge, typename G>
  void back_edge(Edge e, const G& g) const {
    if (found->first < 0) {
      *found = {static_cast<int>(boost::source(e, g)), static_cast<int>(boost::target(e, g))};
    }
  }
};

std::string DescribeCycle(const WorkflowSpec& wf, const std::vector<int>& parent,
                          std::pair<int, int> back) {
  // back = (u, v) with v an ancestor of u: the cycle is v -> ... -> u -> v.
  std::vector<int> path{back.first};
  for (int at = back.first; at != back.second; at = parent[at]) path.push_back(parent[at]);
  std::reverse(path.begin(), path.end());
  std::string text;
  for (int s : path) text += wf.steps[s].name + " -> ";
  return text + wf.steps[back.second].name;
}

}  // namespace

struct WorkflowGraph::Impl {
  const WorkflowSpec* workflow;
  Graph graph;
};

WorkflowGraph::WorkflowGraph(const WorkflowSpec& workflow)
    : impl_(new Impl{&workflow, BuildGraph(workflow)}) {}

WorkflowGraph::~WorkflowGraph() = default;

std::vector<int> WorkflowGraph::Dependents(int step) const {
  std::vector<int> out;
  for (auto [e, end] = boost::out_edges(step, impl_->graph); e != end; ++e) {
    out.push_back(static_cast<int>(boost::target(*e, impl_->graph)));
  }
  return out;
}

Status ValidateWorkflowGraph(const WorkflowSpec& workflow) {
  return WorkflowGraph(workflow).Validate();
}

Status WorkflowGraph::Validate() const {
  const WorkflowSpec& workflow = *impl_->workflow;
  const Graph& g = impl_->graph;
  std::vector<int> parent(workflow.steps.size(), -1);
  std::pair<int, int> back{-1, -1};
  CycleFinder finder;
  finder.parent = &parent;
  finder.found = &back;
  boost::depth_first_search(g, boost::visitor(finder));
  if (back.first < 0) return Status::Ok();
  if (back.first == back.second) {
    return Status::InvalidArgument("step '" + workflow.steps[back.first].name +
                                   "' depends on itself");
  }
  return Status::InvalidArgument("steps form a cycle: " + DescribeCycle(workflow, parent, back));
}

}  // namespace migsim
