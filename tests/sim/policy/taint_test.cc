// Taints and tolerations: Kubernetes' matching rules and the TaintToleration filter.

#include "sim/policy/taint.h"

#include <catch2/catch.hpp>

#include "sim/policy/cluster_view.h"

namespace migsim {
namespace {

const Taint kGpu{.key = "nvidia.com/gpu", .value = "present", .effect = TaintEffect::kNoSchedule};

Toleration Equal(std::string key, std::string value, std::optional<TaintEffect> effect = {}) {
  return {.key = std::move(key),
          .op = TolerationOperator::kEqual,
          .value = std::move(value),
          .effect = effect};
}

Toleration Exists(std::string key, std::optional<TaintEffect> effect = {}) {
  return {.key = std::move(key), .op = TolerationOperator::kExists, .value = "", .effect = effect};
}

}  // namespace

TEST_CASE("a toleration matches a taint by key, value under Equal, and effect", "[taint]") {
  CHECK(Tolerates(Equal("nvidia.com/gpu", "present"), kGpu));
  CHECK_FALSE(Tolerates(Equal("nvidia.com/gpu", "absent"), kGpu));
  CHECK_FALSE(Tolerates(Equal("other", "present"), kGpu));
  CHECK(Tolerates(Exists("nvidia.com/gpu"), kGpu));
  CHECK(Tolerates(Exists(""), kGpu));  // an empty key with Exists tolerates everything
  CHECK(Tolerates(Exists("nvidia.com/gpu", TaintEffect::kNoSchedule), kGpu));
  CHECK_FALSE(Tolerates(Exists("nvidia.com/gpu", TaintEffect::kNoExecute), kGpu));
}

TEST_CASE("a pod must tolerate every NoSchedule and NoExecute taint, not PreferNoSchedule",
          "[taint]") {
  const Taint spot{.key = "spot", .value = "", .effect = TaintEffect::kNoExecute};
  const Taint soft{.key = "soft", .value = "", .effect = TaintEffect::kPreferNoSchedule};
  CHECK(ToleratesTaints({}, {}));
  CHECK(ToleratesTaints({}, {soft}));
  CHECK_FALSE(ToleratesTaints({Exists("nvidia.com/gpu")}, {kGpu, spot}));
  CHECK(ToleratesTaints({Exists("nvidia.com/gpu"), Exists("spot")}, {kGpu, spot, soft}));
}

TEST_CASE("Kubernetes' validation of tolerations is enforced", "[taint]") {
  CHECK(TolerationProblem(Equal("", "x")) ==
        "operator must be Exists when key is empty (a toleration of every taint)");
  Toleration with_value = Exists("k");
  with_value.value = "v";
  CHECK(TolerationProblem(with_value) == "value must be empty when operator is Exists");
  CHECK(TolerationProblem(Exists("")).empty());
}

TEST_CASE("the scheduler's filter admits a pod on a tainted node only if it tolerates the taint",
          "[taint]") {
  NodeInfo node;
  node.taints = {kGpu};
  const Tolerations tolerates = {Exists("nvidia.com/gpu")};
  PodView pod{};
  CHECK_FALSE(ClusterView::Admits(pod, node));
  pod.tolerations = &tolerates;
  CHECK(ClusterView::Admits(pod, node));
  node.taints.clear();
  pod.tolerations = nullptr;
  CHECK(ClusterView::Admits(pod, node));
}

}  // namespace migsim
