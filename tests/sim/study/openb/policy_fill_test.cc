// The fill experiment with any Policy (RunPolicyFill, through fill_cluster_view.h): the
// study's scorers run through GpuShareAdapter give the exact path's results event for
// event where the adapter is exact, and a policy's bad answers fail the pod and are
// counted.
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "policies/gpu_share_adapter.h"
#include "policies/gpu_share_scorers.h"
#include "policies/registry.h"
#include "sim/core/rng.h"
#include "sim/study/openb/fill_experiment.h"
#include "sim/study/openb/openb_campaign.h"
#include "tests/support/openb_data.h"
#include "tests/support/scripted_policy.h"

namespace migsim {
namespace {

// Three models, one of them constrained-to by some pods, nodes of 1 to 8 GPUs: 40 nodes.
std::vector<FillNode> MixedCluster() {
  std::vector<FillNode> nodes;
  const char* models[] = {"T4", "V100M16", "G2", "P100"};
  const int gpus[] = {2, 4, 8, 1};
  for (int i = 0; i < 40; ++i) {
    nodes.push_back({"node-" + std::to_string(100 + i), int64_t{16000} * (1 + i % 4),
                     int64_t{65536} * (1 + i % 3), gpus[i % 4], models[i % 4]});
  }
  return nodes;
}

// 300 pods drawn from openb's shapes: CPU-only, shares of 100-900 milli, whole 1, 2, 4
// and 8-GPU pods, some constrained to models.
std::vector<FillPod> MixedTrace() {
  Rng rng(7);
  std::vector<FillPod> pods;
  const int32_t shares[] = {100, 250, 300, 470, 500, 810, 900};
  for (int i = 0; i < 300; ++i) {
    PodShape s{int64_t{1000} * static_cast<int64_t>(1 + rng.Below(8)), 0, 0, ""};
    const uint64_t kind = rng.Below(10);
    if (kind < 2) {
      // CPU-only
    } else if (kind < 7) {
      s.num_gpu = 1, s.gpu_milli = shares[rng.Below(7)];
    } else {
      s.num_gpu = 1 << rng.Below(4), s.gpu_milli = 1000;
    }
    if (s.num_gpu > 0 && rng.Below(5) == 0) s.gpu_type = rng.Below(2) ? "V100M16|G2" : "T4";
    pods.push_back({"pod-" + std::to_string(1000 + i),
                    int64_t{1024} * (1 + static_cast<int64_t>(rng.Below(16))), s});
  }
  return pods;
}

FillResult Exact(const std::vector<FillNode>& nodes, const std::vector<FillPod>& pods,
                 const std::string& policy, uint64_t seed) {
  Result<FillResult> r = RunFill(nodes, pods, {policy, seed, 1.3}, &MakeGpuShareScorer);
  if (!r.ok()) FAIL(r.status().ToString());
  return std::move(r).value();
}

FillResult Viewed(const std::vector<FillNode>& nodes, const std::vector<FillPod>& pods,
                  Policy& policy, uint64_t seed) {
  Result<FillResult> r = RunPolicyFill(nodes, pods, {"viewed", seed, 1.3}, policy);
  if (!r.ok()) FAIL(r.status().ToString());
  return std::move(r).value();
}

// Event for event, failed shapes and the final state: the two runs placed alike.
void CheckSame(const FillResult& a, const FillResult& b) {
  REQUIRE(a.events.size() == b.events.size());
  for (size_t i = 0; i < a.events.size(); ++i) {
    INFO("pod " << i);
    REQUIRE(a.events[i].arrived_milli == b.events[i].arrived_milli);
    REQUIRE(a.events[i].used_milli == b.events[i].used_milli);
    REQUIRE(a.events[i].frag_milli == b.events[i].frag_milli);
    REQUIRE(a.events[i].idle_milli == b.events[i].idle_milli);
  }
  CHECK(a.pods_failed == b.pods_failed);
  REQUIRE(a.failed.size() == b.failed.size());
  for (size_t i = 0; i < a.failed.size(); ++i) {
    CHECK(a.failed[i].shape == b.failed[i].shape);
    CHECK(a.failed[i].count == b.failed[i].count);
  }
  CHECK(a.final_state.cpu_milli_used == b.final_state.cpu_milli_used);
  CHECK(a.final_state.memory_mib_used == b.final_state.memory_mib_used);
  CHECK(a.final_state.gpus_allocated == b.final_state.gpus_allocated);
  CHECK(a.final_state.idle.fragment() == b.final_state.idle.fragment());
}

// The scorers whose adapter sees all they use: the node's free CPU, free milli per GPU and
// model. (FGD's typical pods, clustering's affinity tags and random's stream are the
// adapter's own approximations: see gpu_share_adapter.h.)
const char* const kExactThroughAdapter[] = {"best-fit-share", "gpu-packing", "dot-product"};

TEST_CASE(
    "a study scorer through the Policy path places as the exact fill does, event for "
    "event, ties going to the lowest rank",
    "[openb][study]") {
  const std::vector<FillNode> nodes = MixedCluster();
  const std::vector<FillPod> pods = MixedTrace();
  for (const char* name : kExactThroughAdapter) {
    for (uint64_t seed : {42, 43, 44}) {
      INFO(name << " seed " << seed);
      GpuShareAdapter adapter(name);
      const FillResult exact = Exact(nodes, pods, name, seed);
      CheckSame(exact, Viewed(nodes, pods, adapter, seed));
      CHECK(exact.pods_failed > 0);  // the cluster fills: the policies' choices matter
    }
  }
}

TEST_CASE(
    "the Policy path runs the exact path's submissions: the same arrivals whatever the "
    "policy, and first-fit differs from best-fit",
    "[openb][study]") {
  const std::vector<FillNode> nodes = MixedCluster();
  const std::vector<FillPod> pods = MixedTrace();
  std::unique_ptr<Policy> first_fit = MakePolicy("first-fit");
  const FillResult viewed = Viewed(nodes, pods, *first_fit, 42);
  const FillResult exact = Exact(nodes, pods, "best-fit-share", 42);
  REQUIRE(viewed.events.size() == exact.events.size());
  bool placed_differently = false;
  for (size_t i = 0; i < viewed.events.size(); ++i) {
    REQUIRE(viewed.events[i].arrived_milli == exact.events[i].arrived_milli);
    placed_differently |= viewed.events[i].frag_milli != exact.events[i].frag_milli;
  }
  CHECK(placed_differently);
  CHECK(viewed.answers_refused == 0);
}

TEST_CASE("a placement the engine's checks refuse fails the pod and is counted as refused",
          "[openb][study]") {
  const std::vector<FillNode> nodes = MixedCluster();
  const std::vector<FillPod> pods = MixedTrace();
  // A node that does not exist, then devices that do not exist, then first-fit.
  std::unique_ptr<Policy> first_fit = MakePolicy("first-fit");
  test::ScriptedPolicy bad({Placement{NodeId(9999)}, Placement{NodeId(0), {{999, 1}}}},
                           first_fit.get());
  const FillResult r = Viewed(nodes, pods, bad, 42);
  CHECK(r.answers_refused == 2);
  CHECK(r.events[0].used_milli == 0);
  std::unique_ptr<Policy> plain = MakePolicy("first-fit");
  CHECK(Viewed(nodes, pods, *plain, 42).answers_refused == 0);
  CHECK(r.pods_failed >= 2);
}

TEST_CASE(
    "a fill campaign runs built-ins, registry policies and made policies side by side "
    "in one order whatever the threads",
    "[openb][study]") {
  OpenbInputs inputs;
  inputs.nodes = MixedCluster();
  inputs.traces = {MixedTrace()};
  inputs.trace_names = {"mixed"};
  std::vector<FillPolicy> policies = ExactFillPolicies({"best-fit-share"});
  policies.push_back(SpecFillPolicy(WithDefaults(PolicySpec{.name = "first-fit"}), false));
  FillPolicy adapted{.label = "adapted-best-fit-share", .one_thread = true};
  adapted.make = [](uint64_t) { return std::make_unique<GpuShareAdapter>("best-fit-share"); };
  policies.push_back(adapted);
  REQUIRE(CheckFillPolicies(inputs, policies).ok());
  CampaignOptions options{.seeds = {1, 2}, .tune = 1.3, .threads = 1, .progress = {}};
  const std::vector<FillRun> one = RunFillCampaign(inputs, policies, options);
  options.threads = 2;
  const std::vector<FillRun> two = RunFillCampaign(inputs, policies, options);
  REQUIRE(one.size() == 6);
  REQUIRE(two.size() == 6);
  for (size_t i = 0; i < one.size(); ++i) {
    CHECK(one[i].config.policy == two[i].config.policy);
    CHECK(one[i].config.seed == two[i].config.seed);
    CheckSame(one[i].result, two[i].result);
  }
  CHECK(one[0].config.policy == "best-fit-share");
  CHECK(one[2].config.policy == "first-fit");
  CHECK(one[5].config.policy == "adapted-best-fit-share");
  CheckSame(one[0].result, one[4].result);  // the adapter is exact for best-fit-share
  CheckSame(one[1].result, one[5].result);
}

TEST_CASE("a policy other than the six needs nodes of whole CPU cores", "[openb][study]") {
  OpenbInputs inputs;
  inputs.nodes = {{"n0", 1500, 1024, 1, "T4"}};
  CHECK(CheckFillPolicies(inputs, ExactFillPolicies({"fgd"})).ok());
  const Status s = CheckFillPolicies(
      inputs, {SpecFillPolicy(WithDefaults(PolicySpec{.name = "first-fit"}), false)});
  CHECK(s.message().find("n0: cpu_milli 1500 is not whole cores") != std::string::npos);
}

TEST_CASE("on the default trace a study scorer through the Policy path equals the exact fill",
          "[openb][study][.][openb-data]") {
  const std::string dir = test::OpenbDataDirOrSkip();
  Result<OpenbInputs> inputs = LoadOpenbInputs({dir, "", {"default"}, ""});
  REQUIRE(inputs.ok());
  for (const char* name : kExactThroughAdapter) {
    INFO(name);
    GpuShareAdapter adapter(name);
    const FillResult exact = Exact(inputs.value().nodes, inputs.value().traces[0], name, 42);
    CheckSame(exact, Viewed(inputs.value().nodes, inputs.value().traces[0], adapter, 42));
  }
}

}  // namespace
}  // namespace migsim
