// The Kueue controller alone, against a fake ClusterApi: what it tells the workload
// controllers that ask for admission, when, and with which templates.
#include "sim/controllers/kueue/kueue_controller.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/support/fake_cluster_api.h"

namespace migsim {
namespace {

using test::FakeClusterApi;
using Calls = std::vector<std::string>;

// One ClusterQueue of cpu, memory and nvidia.com/gpu (one resource group) with
// `per_flavor` GPUs in flavor on-demand, then, with `spot`, as many in flavor spot;
// LocalQueue 0 points at it.
KueueSpec OneQueue(int64_t per_flavor, bool spot = true) {
  KueueSpec spec{.resources = {"cpu", "memory", "nvidia.com/gpu"},
                 .flavors = {{"on-demand", {}}},
                 .cluster_queues = {},
                 .local_queues = {{"q", 0, 0}},
                 .fair_sharing = false,
                 .flavored_templates = {}};
  ClusterQueueSpec cq;
  cq.name = "gpus";
  ResourceGroup group{.covered = {0, 1, 2}, .flavors = {}};
  auto add_flavor = [&](int32_t flavor) {
    group.flavors.push_back({flavor, {{64000, {}, {}}, {1 << 20, {}, {}}, {per_flavor, {}, {}}}});
  };
  add_flavor(0);
  if (spot) {
    spec.flavors.push_back({"spot", {}});
    add_flavor(1);
  }
  cq.groups = {group};
  spec.cluster_queues.push_back(std::move(cq));
  return spec;
}

// A world of templates: each base template the test adds gets its flavored copies (one per
// flavor), as the loader makes them for managed workloads.
struct World {
  ClusterSpec cluster;
  FakeClusterApi api{cluster};
  KueueSpec spec;

  explicit World(KueueSpec kueue) : spec(std::move(kueue)) {}

  // A base template of `gpus` GPUs (and `cpu_milli`, `memory_mib`) at `priority`.
  TemplateId Template(int32_t gpus, int32_t priority = 0, int64_t cpu_milli = 0,
                      int64_t memory_mib = 0) {
    PodTemplate t;
    t.requests.cpu_milli = cpu_milli;
    t.requests.memory_mib = memory_mib;
    t.requests.extended = {{api.Intern("nvidia.com/gpu"), gpus}};
    t.priority = priority;
    const TemplateId base = Add(t);
    for (int32_t f = 0; f < static_cast<int32_t>(spec.flavors.size()); ++f) {
      spec.flavored_templates.push_back({base, {f}, Add(t)});
    }
    return base;
  }
  TemplateId Add(const PodTemplate& t) {
    api.templates.push_back(t);
    return TemplateId(static_cast<TemplateId::Rep>(api.templates.size() - 1));
  }
};

WorkloadId Request(KueueController& kueue, FakeClusterApi& api, uint32_t owner,
                   std::vector<PodSet> sets) {
  return kueue.RequestAdmission(api, OwnerId(owner), 0, sets);
}

TEST_CASE("Kueue tells a workload's controller it is admitted at the next cycle, not before",
          "[kueue]") {
  World w(OneQueue(4));
  const TemplateId job = w.Template(2);  // copies: 1 on-demand, 2 spot
  KueueController kueue(w.spec);
  kueue.Start(w.api);
  CHECK(w.api.timers().empty());
  const WorkloadId id = Request(kueue, w.api, 7, {{job, 2}});
  CHECK(w.api.calls.empty());
  CHECK(kueue.state().workload(id).state == WorkloadRecord::State::kPending);
  kueue.BeforeCycle(w.api);
  CHECK(w.api.calls == Calls{"TellAdmitted owner 7 workload 0 templates 1"});
  CHECK(kueue.state().workload(id).state == WorkloadRecord::State::kAdmitted);
  kueue.BeforeCycle(w.api);  // nothing changed: nothing told
  CHECK(w.api.calls.size() == 1);
  CHECK(w.api.timers().empty());
}

TEST_CASE("an admitted workload's pods come from the copy of their template for its flavor",
          "[kueue]") {
  World w(OneQueue(4));
  const TemplateId job = w.Template(4);
  KueueController kueue(w.spec);
  Request(kueue, w.api, 1, {{job, 1}});
  Request(kueue, w.api, 2, {{job, 1}});
  kueue.BeforeCycle(w.api);
  // The first fills on-demand; the second goes to the next flavor, spot.
  CHECK(w.api.calls == Calls{"TellAdmitted owner 1 workload 0 templates 1",
                             "TellAdmitted owner 2 workload 1 templates 2"});
}

TEST_CASE("a workload's request is the sum of its pod sets', and each set gets its template",
          "[kueue]") {
  World w(OneQueue(8));
  const TemplateId workers = w.Template(2, 0, 1000, 2048);
  const TemplateId launcher = w.Template(1, 0, 500);
  KueueController kueue(w.spec);
  const WorkloadId id = Request(kueue, w.api, 3, {{workers, 3}, {launcher, 1}});
  CHECK(kueue.state().workload(id).request.request == std::vector<int64_t>{3500, 6144, 7});
  kueue.BeforeCycle(w.api);
  CHECK(w.api.calls == Calls{"TellAdmitted owner 3 workload 0 templates 1 4"});
}

TEST_CASE("a finished workload releases its quota and the waiting one is admitted next cycle",
          "[kueue]") {
  World w(OneQueue(4));
  const TemplateId job = w.Template(2);
  KueueController kueue(w.spec);
  const WorkloadId first = Request(kueue, w.api, 1, {{job, 2}});
  Request(kueue, w.api, 2, {{job, 2}});
  const WorkloadId third = Request(kueue, w.api, 3, {{job, 1}});
  kueue.BeforeCycle(w.api);
  CHECK(w.api.calls == Calls{"TellAdmitted owner 1 workload 0 templates 1",
                             "TellAdmitted owner 2 workload 1 templates 2"});
  CHECK(kueue.state().workload(third).state == WorkloadRecord::State::kPending);
  w.api.set_now(SimTime::Seconds(100));
  kueue.FinishWorkload(w.api, first);
  CHECK(kueue.state().workload(first).state == WorkloadRecord::State::kFinished);
  CHECK(w.api.calls.size() == 2);  // told at the next cycle
  kueue.BeforeCycle(w.api);
  REQUIRE(w.api.calls.size() == 3);
  CHECK(w.api.calls[2] == "TellAdmitted owner 3 workload 2 templates 1");
  CHECK(*kueue.state().workload(third).first_admitted == SimTime::Seconds(100));
}

TEST_CASE("an eviction is told to its owner before the admission it makes room for", "[kueue]") {
  KueueSpec spec = OneQueue(2, /*spot=*/false);
  spec.cluster_queues[0].within_cluster_queue = WithinClusterQueue::kLowerPriority;
  World w(spec);
  const TemplateId low = w.Template(2, 0);
  const TemplateId high = w.Template(2, 10);  // its copy: 3
  KueueController kueue(w.spec);
  const WorkloadId victim = Request(kueue, w.api, 1, {{low, 1}});
  kueue.BeforeCycle(w.api);
  w.api.set_now(SimTime::Seconds(5));
  Request(kueue, w.api, 2, {{high, 1}});
  kueue.BeforeCycle(w.api);
  CHECK(w.api.calls == Calls{"TellAdmitted owner 1 workload 0 templates 1",
                             "TellEvicted owner 1 workload 0",
                             "TellAdmitted owner 2 workload 1 templates 3"});
  CHECK(kueue.state().workload(victim).state == WorkloadRecord::State::kPending);
  CHECK(kueue.state().workload(victim).evictions == 1);
}

}  // namespace
}  // namespace migsim
