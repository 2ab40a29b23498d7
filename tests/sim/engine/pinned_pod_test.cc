// Pods with a nodeName (PodTemplate::node_name): bound to their node without the
// scheduler, before its cycle, waiting for room when the node has none.

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "policies/first_fit.h"
#include "sim/engine/engine.h"
#include "tests/support/recording_observer.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

// Two p3.2xlarge (1 x V100 each): "a-0" (node 0) and "b-0" (node 1).
Scenario TwoNodes() {
  Scenario s;
  s.cluster.nodes.push_back(test::GpuNode("a-0", "p3.2xlarge"));
  s.cluster.nodes.push_back(test::GpuNode("b-0", "p3.2xlarge"));
  return s;
}

TemplateId GpuPod(Scenario& s, JobClassId jc, int32_t priority = 0) {
  return test::AddTemplate(
      s, {.extended = {{"nvidia.com/gpu", 1}}, .job_class = jc, .priority = priority});
}

TemplateId Pinned(Scenario& s, TemplateId tmpl, uint32_t node) {
  s.templates.push_back(s.templates[tmpl.value()]);
  s.templates.back().node_name = NodeId(node);
  return TemplateId(static_cast<TemplateId::Rep>(s.templates.size() - 1));
}

std::vector<uint32_t> Nodes(const Engine& engine) {
  std::vector<uint32_t> nodes;
  for (const Pod& p : engine.pods()) nodes.push_back(p.node.valid() ? p.node.value() : 99);
  return nodes;
}

}  // namespace

TEST_CASE("a pod with a nodeName is on its node before the scheduler places anyone",
          "[engine][pinned]") {
  Scenario s = TwoNodes();
  JobClassId jc = test::AddJobClass(s, "run", test::Sec(0), test::Sec(10));
  const TemplateId any = GpuPod(s, jc, 1000);  // first in the queue, first-fit: node 0
  test::AddPods(s, "urgent", test::Sec(0), any);
  test::AddPods(s, "running", test::Sec(0), Pinned(s, GpuPod(s, jc), 0));
  FirstFitPolicy policy;
  auto engine = test::RunEngine(s, policy);
  CHECK(Nodes(*engine) == std::vector<uint32_t>{1, 0});
  CHECK(engine->pods()[1].bound == test::Sec(0));
}

TEST_CASE("a pod with a nodeName ignores taints and selectors but waits for room",
          "[engine][pinned]") {
  Scenario s = TwoNodes();
  s.cluster.nodes[0].taints = {{"nvidia.com/gpu", "", TaintEffect::kNoSchedule}};
  JobClassId jc = test::AddJobClass(s, "run", test::Sec(0), test::Sec(10));
  TemplateId tmpl = test::AddTemplate(
      s,
      {.extended = {{"nvidia.com/gpu", 1}}, .node_selector = {{"team", "none"}}, .job_class = jc});
  test::AddPods(s, "pinned", test::Sec(0), Pinned(s, tmpl, 0), 2);
  test::AddPods(s, "free", test::Sec(1),
                GpuPod(s, jc));  // not blocked behind the waiting pinned pod
  FirstFitPolicy policy;
  test::RecordingObserver observer;
  auto engine = test::RunEngine(s, policy, {&observer});
  CHECK(Nodes(*engine) == std::vector<uint32_t>{0, 0, 1});
  CHECK(engine->pods()[0].bound == test::Sec(0));
  CHECK(engine->pods()[2].bound == test::Sec(1));
  CHECK(engine->pods()[1].bound == test::Sec(10));  // the first one's GPU, once it ended
  CHECK(engine->pods()[1].phase == PodPhase::kSucceeded);
}

}  // namespace migsim
