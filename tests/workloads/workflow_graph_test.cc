#include "workloads/workflow_graph.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

// A workflow whose step i is named names[i] and depends on the steps in deps[i].
WorkflowSpec Graph(const std::vector<std::string>& names,
                   const std::vector<std::vector<int>>& deps) {
  WorkflowSpec wf = test::MakeWorkflow("wf", SimTime::Zero());
  for (size_t i = 0; i < names.size(); ++i)
    wf.steps.push_back(test::MakeStep(names[i], {}, deps[i]));
  return wf;
}

TEST_CASE("a workflow whose steps form a DAG is valid", "[workloads][workflow_graph]") {
  CHECK(ValidateWorkflowGraph(Graph({}, {})).ok());
  CHECK(ValidateWorkflowGraph(Graph({"a"}, {{}})).ok());
  // A diamond: d depends on b and c, which depend on a; dependencies listed out of order.
  CHECK(ValidateWorkflowGraph(Graph({"d", "b", "c", "a"}, {{1, 2}, {3}, {3}, {}})).ok());
}

TEST_CASE("a cycle between steps is rejected with the steps it goes through",
          "[workloads][workflow_graph]") {
  SECTION("two steps") {
    Status s = ValidateWorkflowGraph(Graph({"a", "b"}, {{1}, {0}}));
    CHECK(s.code() == StatusCode::kInvalidArgument);
    CHECK(s.message() == "steps form a cycle: a -> b -> a");
  }
  SECTION("three steps") {
    Status s = ValidateWorkflowGraph(Graph({"a", "b", "c"}, {{2}, {0}, {1}}));
    CHECK(s.message() == "steps form a cycle: a -> b -> c -> a");
  }
  SECTION("a cycle away from the first step") {
    Status s = ValidateWorkflowGraph(Graph({"root", "x", "y", "leaf"}, {{}, {2}, {1}, {0}}));
    CHECK(s.message() == "steps form a cycle: x -> y -> x");
  }
}

TEST_CASE("a step that depends on itself is rejected", "[workloads][workflow_graph]") {
  Status s = ValidateWorkflowGraph(Graph({"prep", "a"}, {{}, {0, 1}}));
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK(s.message() == "step 'a' depends on itself");
}

}  // namespace
}  // namespace migsim
