// `migsim import` (ImportSnapshot): the example snapshot round-trips to the committed
// scenario, which runs; nodes become pools, pods workloads; errors and warnings are located.

#include "sim/io/k8s/snapshot_import.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "sim/io/input_file.h"
#include "sim/io/scenario_json.h"
#include "sim/study/run.h"

namespace migsim::k8s {
namespace {

const std::string kDir = std::string(MIGSIM_SOURCE_DIR) + "/scenarios/snapshot/";

std::string Text(const std::string& file) {
  Result<std::string> text = ReadInputFile(kDir + file);
  REQUIRE(text.ok());
  return text.value();
}

SnapshotScenario Import(const std::string& nodes, const std::string& pods) {
  Result<SnapshotScenario> s = ImportSnapshot(nodes, "nodes.json", pods, "pods.json", {});
  INFO((s.ok() ? "" : s.status().ToString()));
  REQUIRE(s.ok());
  return s.value();
}

std::string ErrorOf(const std::string& nodes, const std::string& pods) {
  Result<SnapshotScenario> s = ImportSnapshot(nodes, "nodes.json", pods, "pods.json", {});
  REQUIRE_FALSE(s.ok());
  return s.status().ToString();
}

// A node List of one node "n1".
std::string OneNode(const std::string& labels, const std::string& capacity = "",
                    const std::string& cpu = "7910m") {
  return R"({"kind": "List", "items": [{"kind": "Node", "metadata": {"name": "n1", "labels": {)" +
         labels + R"(}}, "status": {"capacity": {)" + capacity + R"(}, "allocatable": {"cpu": ")" +
         cpu + R"(", "memory": "31369692Ki"}}}]})";
}

// A pod List of `pods`, each a Pod's members.
std::string Pods(const std::vector<std::string>& pods) {
  std::string items;
  for (const std::string& p : pods) items += (items.empty() ? "" : ", ") + ("{" + p + "}");
  return R"({"kind": "List", "items": [)" + items + "]}";
}

// A pod of `owner` (kind, name) on node "n1" asking for `resources`.
std::string Pod(const std::string& name, const std::string& owner_kind, const std::string& owner,
                const std::string& resources) {
  return R"("kind": "Pod", "metadata": {"name": ")" + name +
         R"(", "labels": {"pod-template-hash": "abc12"}, "ownerReferences": [{"kind": ")" +
         owner_kind + R"(", "name": ")" + owner + R"(", "controller": true}]},
         "spec": {"nodeName": "n1", "containers": [{"name": "c", "image": "i",
         "resources": {"limits": {)" +
         resources + R"(}}}]}, "status": {"phase": "Running"})";
}

const std::string kM5 = R"("node.kubernetes.io/instance-type": "m5.2xlarge")";
const std::string kNoPods = R"({"kind": "List", "items": []})";

nlohmann::json Json(const SnapshotScenario& s) { return nlohmann::json::parse(s.json); }

}  // namespace

TEST_CASE("the example snapshot imports to the committed scenario", "[k8s][snapshot]") {
  const SnapshotScenario s = Import(Text("nodes.json"), Text("pods.json"));
  CHECK(s.json == Text("scenario.json"));
  CHECK(s.notices == std::vector<std::string>{
                         "9 nodes read: 8 in 5 pools, 1 left out",
                         "21 bound pods pinned to their nodes, 6 pending pods queued at time 0; "
                         "left out: 3 on nodes left out, 1 finished, 16 of DaemonSets without "
                         "GPUs, 0 for other schedulers",
                         "job classes with the placeholder run time of 3600 s (edit "
                         "job_classes, or use --run-s): finetune-llama, train-resnet50, "
                         "train-vit-b16, cuda-debug-alice"});
}

TEST_CASE("the imported example runs with the snapshot's nodes and pods", "[k8s][snapshot]") {
  Result<ScenarioFile> file = LoadScenarioFile(kDir + "scenario.json");
  INFO((file.ok() ? "" : file.status().ToString()));
  REQUIRE(file.ok());
  REQUIRE(file.value().variants.size() == 3);
  const Scenario& base = file.value().variants[0].second;
  CHECK(base.cluster.nodes.size() == 8);
  CHECK(file.value().variants[1].second.cluster.nodes.size() == 10);  // add-two-p4d
  const VariantResult run = RunVariant("snapshot", base, {.collect_pods = true});
  REQUIRE(run.pods.size() == 27);  // 21 bound, 6 pending
  // Pending and bound at 3600 s, when the placeholder hour of the pods holding what they
  // need is over: the fine-tuning Job's last two (every 3g.20gb taken) and train-vit-b16
  // (4 whole GPUs: only the p3's). Every other pod is on a node at time 0.
  std::vector<std::string> later;
  for (const PodRecord& p : run.pods) {
    if (p.bound != SimTime::Zero()) {
      CHECK(p.bound == SimTime::Seconds(3600));
      later.push_back(p.name + " " + p.node);
    }
  }
  CHECK(later == std::vector<std::string>{"finetune-llama-0 p4d-mixed-0",
                                          "finetune-llama-1 p4d-mixed-0",
                                          "train-vit-b16-0 p3-training-0"});
}

TEST_CASE("bad snapshots are errors naming the file and the place", "[k8s][snapshot]") {
  CHECK_THAT(ErrorOf("{", kNoPods), Catch::StartsWith("nodes.json:line 1, column "));
  CHECK_THAT(
      ErrorOf(OneNode(kM5, "", "lots"), kNoPods),
      Catch::StartsWith("nodes.json: document 1: items[0].status.allocatable.cpu (line 1): "));
  CHECK(ErrorOf(OneNode(kM5), OneNode(kM5)) ==
        "pods.json: document 1: items[0].kind (line 1): expected a Pod (kubectl get pods -A -o "
        "json), got Node");
  CHECK(ErrorOf(kNoPods, kNoPods) == "nodes.json: no node to import (a scenario needs one)");
  CHECK(ErrorOf(OneNode(kM5), "\xff") ==
        "pods.json:line 1, column 1: not valid UTF-8 (byte 0xff at byte offset 0)");
  CHECK(ErrorOf(OneNode(R"("node.kubernetes.io/instance-type": "m5\ud800")"), kNoPods) ==
        "nodes.json:line 1, column 128: malformed YAML: invalid unicode: 55296");
  CHECK(ErrorOf(OneNode(kM5, R"("nvidia.com/gpu": "eight")"), kNoPods) ==
        "nodes.json: document 1: items[0].status.capacity.nvidia.com/gpu (line 1): expected a "
        "device count, got 'eight'");
}

TEST_CASE("a taint the scenario would refuse is an error at the node's taint", "[k8s][snapshot]") {
  // Found by the snapshot_import fuzz target (fuzz/corpus/snapshot_import/
  // regress-taint-effect.txt): the importer wrote the effect as it was and the scenario it
  // had written did not load.
  const auto tainted = [](const std::string& taint) {
    std::string node = OneNode(kM5);
    node.insert(node.find(R"("status")"), R"("spec": {"taints": [)" + taint + "]}, ");
    return node;
  };
  CHECK(ErrorOf(tainted(R"({"key": "gpu", "effect": "NoSched\u007fule"})"), kNoPods) ==
        "nodes.json: document 1: items[0].spec.taints[0].effect (line 1): unknown taint effect "
        "'NoSched\x7fule' (valid: NoSchedule, PreferNoSchedule, NoExecute)");
  CHECK(ErrorOf(tainted(R"({"key": "gpu"})"), kNoPods) ==
        "nodes.json: document 1: items[0].spec.taints[0] (line 1): missing required field "
        "'effect'");
  CHECK(ErrorOf(tainted(R"({"effect": "NoSchedule"})"), kNoPods) ==
        "nodes.json: document 1: items[0].spec.taints[0] (line 1): a taint needs a key");
  CHECK(Json(Import(tainted(R"({"key": "gpu", "effect": "NoExecute"})"), kNoPods))
            .dump()
            .find(R"("taints":[{"effect":"NoExecute","key":"gpu"}])") != std::string::npos);
}

TEST_CASE("what the scenario would refuse of a pod is an error at the pod's path",
          "[k8s][snapshot]") {
  // Found by the snapshot_import fuzz target (fuzz/corpus/snapshot_import/
  // regress-nameless-pod.txt): a pod whose metadata was misspelt made a job class named "".
  const std::string gpu = R"("nvidia.com/gpu": 1)";
  CHECK(ErrorOf(OneNode(kM5), Pods({Pod("", "Job", "train", gpu)})) ==
        "pods.json: document 1: items[0] (line 1): missing required field 'metadata.name'");
  CHECK(ErrorOf(OneNode(kM5), Pods({Pod("p", "Job", "", gpu)})) ==
        "pods.json: document 1: items[0].metadata.ownerReferences[0] (line 1): an owner needs a "
        "kind and a name");
  // regress-bad-namespace.txt: the namespace went into the scenario as it was.
  std::string pod = Pod("p", "Job", "train", gpu);
  pod.insert(pod.find(R"("labels")"), R"("namespace": "Research", )");
  CHECK(ErrorOf(OneNode(kM5), Pods({pod})) ==
        "pods.json: document 1: items[0].metadata.namespace (line 1): namespace 'Research' must "
        "be 1 to 63 lowercase letters, digits and '-', starting and ending with a letter or "
        "digit");
  // regress-reserved-priority-class.txt: a class the scenario could not define.
  pod = Pod("p", "Job", "train", gpu);
  pod.insert(pod.find(R"("nodeName")"), R"("priorityClassName": "system-", )");
  CHECK(ErrorOf(OneNode(kM5), Pods({pod})) ==
        "pods.json: document 1: items[0].spec.priorityClassName (line 2): priority class "
        "'system-': names starting with 'system-' are reserved for the system's classes");
}

TEST_CASE("a value the scenario loader refuses is an error at the snapshot element it came from",
          "[k8s][snapshot]") {
  // The importer loads what it writes; the loader's error is mapped back from the scenario's
  // JSON pointer to the snapshot element that made the member (snapshot_sources.h). Found by
  // the snapshot_import fuzz target: a priority class name the scenario refuses, and MIG
  // devices a node advertises that its GPUs cannot hold.
  std::string pod = Pod("p", "Job", "train", R"("nvidia.com/gpu": 1)");
  pod.insert(pod.find(R"("nodeName")"), R"("priorityClassName": "serving*", )");
  CHECK(ErrorOf(OneNode(kM5), Pods({pod})) ==
        "pods.json: document 1: items[0].spec.priorityClassName (line 2): the imported scenario "
        "would not load (at /priority_classes/serving*): a priority class name is letters, "
        "digits, '.', '_' and '-'");
  const std::string mig_node = OneNode(
      R"("node.kubernetes.io/instance-type": "p4d.24xlarge", "nvidia.com/gpu.count": "1",
         "nvidia.com/gpu.product": "NVIDIA-A100-SXM4-40GB", "nvidia.com/mig.strategy": "mixed")",
      R"("nvidia.com/mig-3g.20gb": "4")");
  CHECK(ErrorOf(mig_node, kNoPods) ==
        "nodes.json: document 1: items[0] (line 1): the imported scenario would not load (at "
        "/cluster/nodes/p4d-24xlarge-custom/mig/layouts/0): 4 x 3g.20gb exceeds its maximum of 2 "
        "per GPU");
}

TEST_CASE("a node of no catalog type gets a custom type from its allocatable resources",
          "[k8s][snapshot]") {
  const nlohmann::json s = Json(Import(OneNode(kM5), kNoPods));
  CHECK(s["cluster"]["nodes"] == nlohmann::json::parse(R"({"m5-2xlarge": {"type": "m5.2xlarge",
                                                           "count": 1}})"));
  CHECK(s["cluster"]["node_types"]["m5.2xlarge"] ==
        nlohmann::json::parse(R"({"vcpu": 7, "memory_gib": 29.9169921875})"));
}

TEST_CASE("a MIG config migsim does not know becomes the layout the node advertises",
          "[k8s][snapshot]") {
  const std::string labels = R"("node.kubernetes.io/instance-type": "p4d.24xlarge",
      "nvidia.com/gpu.product": "NVIDIA-A100-SXM4-40GB", "nvidia.com/gpu.count": "8",
      "nvidia.com/mig.config": "team-a")";
  const SnapshotScenario imported = Import(
      OneNode(labels, R"("nvidia.com/mig-1g.5gb": "16", "nvidia.com/mig-3g.20gb": "8")"), kNoPods);
  CHECK(Json(imported)["cluster"]["nodes"]["p4d-24xlarge"] == nlohmann::json::parse(R"({
      "type": "p4d.24xlarge", "count": 1,
      "mig": {"layouts": [["1g.5gb", "1g.5gb", "3g.20gb"]]},
      "device_plugin": {"mig_strategy": "mixed"}})"));
  CHECK(imported.warnings ==
        std::vector<std::string>{"nodes.json: document 1: items[0].metadata.labels (line 1): MIG "
                                 "config 'team-a' is not one migsim knows for the A100-SXM4-40GB: "
                                 "the layout advertised in status.capacity is used"});
}

TEST_CASE("GPU Feature Discovery's replicas label becomes time-slicing", "[k8s][snapshot]") {
  const nlohmann::json s = Json(
      Import(OneNode(R"("node.kubernetes.io/instance-type": "g5.12xlarge", "nvidia.com/gpu.product":
                 "NVIDIA-A10G", "nvidia.com/gpu.count": "4", "nvidia.com/gpu.replicas": "10")",
                     R"("nvidia.com/gpu": "40")"),
             kNoPods));
  CHECK(s["cluster"]["nodes"]["g5-12xlarge"] == nlohmann::json::parse(R"({
      "type": "g5.12xlarge", "count": 1,
      "device_plugin": {"time_slicing": {"replicas": 10}}})"));
}

TEST_CASE("pods become workloads by owner and node, node agents are left out", "[k8s][snapshot]") {
  const std::string gpu = R"("nvidia.com/gpu": 1)";
  const SnapshotScenario imported =
      Import(OneNode(R"("node.kubernetes.io/instance-type": "p3.8xlarge", "nvidia.com/gpu.product":
                 "Tesla-V100-SXM2-16GB", "nvidia.com/gpu.count": "4")"),
             Pods({Pod("web-abc12-x", "ReplicaSet", "web-abc12", gpu),
                   Pod("web-abc12-y", "ReplicaSet", "web-abc12", gpu),
                   Pod("agent-z", "DaemonSet", "agent", R"("cpu": "100m")"),
                   Pod("train-q", "Job", "train", gpu)}));
  const nlohmann::json w = Json(imported)["workloads"];
  CHECK(w.size() == 2);
  CHECK(w["web@p3-8xlarge-0"]["kind"] == "Deployment");
  CHECK(w["web@p3-8xlarge-0"]["replicas"] == 2);
  CHECK(w["web@p3-8xlarge-0"]["template"]["nodeName"] == "p3-8xlarge-0");
  CHECK(w["train@p3-8xlarge-0"]["kind"] == "Job");
  CHECK(w["train@p3-8xlarge-0"]["template"]["job_class"] == "train");
  CHECK(Json(imported)["job_classes"]["train"]["run_s"] == 3600);
  CHECK_THAT(imported.notices[1], Catch::Contains("1 of DaemonSets without GPUs"));
}

}  // namespace migsim::k8s
