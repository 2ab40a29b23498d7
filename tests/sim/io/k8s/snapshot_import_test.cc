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
                         "9 nodes read: 8 in 6 pools, 1 left out",
                         "21 bound pods pinned to their nodes, 6 pending pods queued at time 0; "
                         "left out: 3 on nodes left out, 1 finished, 16 of DaemonSets without "
                         "GPUs, 0 for other schedulers",
                         "job classes with the placeholder run time of 3600 s (edit "
                         "job_classes, or use --run-s): finetune-llama, train-resnet50, "
                         "train-vit-b16, cuda-debug-alice"});
}

TEST_CASE("the GFD example snapshot imports to the committed scenario", "[k8s][snapshot]") {
  // Nodes under the single MIG strategy, time-sliced, MIG-INVALID; Kueue-queued pods.
  Result<SnapshotScenario> s = ImportSnapshot(Text("gfd/nodes.json"), "nodes.json",
                                              Text("gfd/pods.json"), "pods.json",
                                              {.name = "snapshot-gfd"});
  REQUIRE(s.ok());
  CHECK(s.value().json == Text("gfd/scenario.json"));
  CHECK(s.value().notices.at(0) == "5 nodes read: 5 in 4 pools, 0 left out");
  CHECK(s.value().notices.at(1) ==
        "33 bound pods pinned to their nodes, 2 pending pods queued at time 0; left out: 0 on "
        "nodes left out, 0 finished, 9 of DaemonSets without GPUs, 0 for other schedulers");
  // One warning: the MIG-INVALID node (Kueue's admission gates are what queue_name models).
  REQUIRE(s.value().warnings.size() == 1);
  CHECK_THAT(s.value().warnings[0],
             Catch::Contains("node 'ip-10-20-9-12.us-west-2.compute.internal': GPU product "
                             "'NVIDIA-A100-SXM4-40GB-MIG-INVALID'"));
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

const std::string kP4d = R"("node.kubernetes.io/instance-type": "p4d.24xlarge", )";

// A p4d.24xlarge under GFD's single MIG strategy: `product`, `count` MIG devices advertised
// `replicas` times each.
std::string SingleStrategyNode(const std::string& product, int count, int replicas,
                               const std::string& extra = "") {
  return OneNode(kP4d + R"("nvidia.com/gpu.product": ")" + product +
                     R"(", "nvidia.com/gpu.count": ")" + std::to_string(count) +
                     R"(", "nvidia.com/gpu.replicas": ")" + std::to_string(replicas) +
                     R"(", "nvidia.com/mig.strategy": "single")" + extra,
                 R"("nvidia.com/gpu": ")" + std::to_string(count * replicas) + R"(")");
}

TEST_CASE("GFD's single-strategy MIG product becomes the pool's MIG layout and strategy",
          "[k8s][snapshot]") {
  // nvidia.com/gpu.count counts MIG devices under the single strategy: 56 = 8 GPUs x 7.
  const std::string gpu = R"("nvidia.com/gpu": 1)";
  const SnapshotScenario labelled =
      Import(SingleStrategyNode("NVIDIA-A100-SXM4-40GB-MIG-1g.5gb", 56, 1,
                                R"(, "nvidia.com/mig.config": "all-1g.5gb")"),
             Pods({Pod("embed-abc12-x", "ReplicaSet", "embed-abc12", gpu)}));
  CHECK(Json(labelled)["cluster"]["nodes"]["p4d-24xlarge"] == nlohmann::json::parse(R"({
      "type": "p4d.24xlarge", "count": 1, "mig": {"config": "all-1g.5gb"},
      "device_plugin": {"mig_strategy": "single"}})"));
  CHECK(Json(labelled)["workloads"]["embed@p4d-24xlarge-0"]["replicas"] == 1);
  CHECK(labelled.warnings.empty());
  // Without the config label: the layout GFD reports, 2 x 3g.20gb on each of the 8 GPUs.
  const SnapshotScenario unlabelled =
      Import(SingleStrategyNode("NVIDIA-A100-SXM4-40GB-MIG-3g.20gb", 16, 1), kNoPods);
  CHECK(Json(unlabelled)["cluster"]["nodes"]["p4d-24xlarge"]["mig"] ==
        nlohmann::json::parse(R"({"layouts": [["3g.20gb", "3g.20gb"]]})"));
  // Time-sliced too: "-SHARED" after the profile, each MIG device advertised twice.
  const nlohmann::json shared =
      Json(Import(SingleStrategyNode("NVIDIA-A100-SXM4-40GB-MIG-1g.5gb-SHARED", 56, 2), kNoPods));
  CHECK(shared["cluster"]["nodes"]["p4d-24xlarge"]["device_plugin"] ==
        nlohmann::json::parse(R"({"mig_strategy": "single", "time_slicing": {"replicas": 2}})"));
}

TEST_CASE("GFD's MIG-INVALID product keeps the node without GPUs for pods, with a warning",
          "[k8s][snapshot]") {
  // all-balanced under the single strategy: GFD's invalid labels, nothing advertised.
  std::string pending = Pod("infer-q", "Job", "infer", R"("nvidia.com/gpu": 1)");
  pending.erase(pending.find(R"("nodeName": "n1", )"), 18);
  const SnapshotScenario s = Import(
      OneNode(kP4d + R"("nvidia.com/gpu.product": "NVIDIA-A100-SXM4-40GB-MIG-INVALID",
              "nvidia.com/gpu.count": "0", "nvidia.com/gpu.replicas": "0",
              "nvidia.com/mig.strategy": "single", "nvidia.com/mig.config": "all-balanced")",
              R"("nvidia.com/gpu": "0")"),
      Pods({pending}));
  CHECK(Json(s)["cluster"]["nodes"]["p4d-24xlarge"] == nlohmann::json::parse(R"({
      "type": "p4d.24xlarge", "count": 1, "mig": {"config": "all-balanced"},
      "device_plugin": {"mig_strategy": "single"}})"));
  REQUIRE(s.warnings.size() == 1);
  CHECK(s.warnings[0] ==
        "nodes.json: document 1: items[0].metadata.labels (line 1): node 'n1': GPU product "
        "'NVIDIA-A100-SXM4-40GB-MIG-INVALID': the device plugin's single MIG strategy refused "
        "the node's MIG devices (more than one profile, or a MIG-enabled GPU without one), so it "
        "advertises no nvidia.com/gpu. Imported so: MIG config 'all-balanced' under the single "
        "strategy, which migsim refuses too (its CPU and memory still take pods; pods bound to "
        "it that ask for GPUs wait). Fix the node with a one-profile nvidia.com/mig.config or "
        "the mixed strategy (see the all-balanced variant)");
  // The scenario reproduces it: the node advertises no GPU, the pod asking for one waits.
  Result<ScenarioFile> file = ParseScenarioText(s.json, "s.json");
  REQUIRE(file.ok());
  const VariantResult run =
      RunVariant("snapshot", file.value().variants[0].second, {.collect_pods = true});
  REQUIRE(run.pods.size() == 1);
  CHECK_FALSE(run.pods[0].bound.has_value());
}

TEST_CASE("GFD's SHARED product becomes time-slicing, checked against the advertised count",
          "[k8s][snapshot]") {
  const auto node = [](const std::string& replicas, const std::string& advertised) {
    return OneNode(R"("node.kubernetes.io/instance-type": "g5.12xlarge",
        "nvidia.com/gpu.product": "NVIDIA-A10G-SHARED", "nvidia.com/gpu.count": "4",
        "nvidia.com/gpu.sharing-strategy": "time-slicing")" + replicas,
                   R"("nvidia.com/gpu": ")" + advertised + R"(")");
  };
  const auto pool = [](const SnapshotScenario& s) {
    return Json(s)["cluster"]["nodes"]["g5-12xlarge"];
  };
  const nlohmann::json four = nlohmann::json::parse(R"({"type": "g5.12xlarge", "count": 1,
      "device_plugin": {"time_slicing": {"replicas": 4}}})");
  const SnapshotScenario labelled = Import(node(R"(, "nvidia.com/gpu.replicas": "4")", "16"), kNoPods);
  CHECK(pool(labelled) == four);
  CHECK(labelled.warnings.empty());
  // No replicas label: what each GPU is advertised as.
  CHECK(pool(Import(node("", "16"), kNoPods)) == four);
  // Capacity and labels disagree: the labels, and a warning naming the node and the figures.
  const SnapshotScenario odd = Import(node(R"(, "nvidia.com/gpu.replicas": "4")", "12"), kNoPods);
  CHECK(pool(odd) == four);
  CHECK(odd.warnings == std::vector<std::string>{
                            "nodes.json: document 1: items[0].metadata.labels (line 1): node "
                            "'n1': status.capacity advertises 12 nvidia.com/gpu, but "
                            "nvidia.com/gpu.count x nvidia.com/gpu.replicas is 4 x 4 = 16: the "
                            "labels are used (GPU Feature Discovery relabels after the device "
                            "plugin; check the node's GPUs and plugin config)"});
}

TEST_CASE("node labels are kept but the hostname, the instance type and GPU state",
          "[k8s][snapshot]") {
  const SnapshotScenario s = Import(
      OneNode(kP4d + R"("kubernetes.io/hostname": "ip-10-0-1-5.ec2.internal",
          "eks.amazonaws.com/nodegroup": "gpu-a100", "karpenter.sh/capacity-type": "on-demand",
          "topology.kubernetes.io/zone": "us-west-2a", "kubernetes.io/os": "linux",
          "topology.k8s.aws/network-node-layer-3": "nn-5e2a9c7d1f3b4e8a0", "team": "search",
          "nvidia.com/gpu.product": "NVIDIA-A100-SXM4-40GB", "nvidia.com/gpu.count": "8",
          "nvidia.com/gpu.family": "ampere", "nvidia.com/gfd.timestamp": "1763621161",
          "nvidia.com/gpu.deploy.device-plugin": "true", "nvidia.com/mig.capable": "true",
          "nvidia.com/mig.config.state": "success")",
              R"("nvidia.com/gpu": "8")"),
      kNoPods);
  CHECK(Json(s)["cluster"]["nodes"]["gpu-a100"]["labels"] == nlohmann::json::parse(R"({
      "eks.amazonaws.com/nodegroup": "gpu-a100", "karpenter.sh/capacity-type": "on-demand",
      "kubernetes.io/os": "linux", "nvidia.com/gpu.family": "ampere", "team": "search",
      "topology.k8s.aws/network-node-layer-3": "nn-5e2a9c7d1f3b4e8a0",
      "topology.kubernetes.io/zone": "us-west-2a"})"));
}

TEST_CASE("a selector on the snapshot's hostname names migsim's node", "[k8s][snapshot]") {
  std::string pod = Pod("p", "Job", "train", R"("nvidia.com/gpu": 1)");
  pod.replace(pod.find(R"("nodeName": "n1")"), 16,
              R"("nodeSelector": {"kubernetes.io/hostname": "n1"})");
  const nlohmann::json s =
      Json(Import(OneNode(kM5 + R"(, "kubernetes.io/hostname": "n1")"), Pods({pod})));
  CHECK(s["workloads"]["train"]["template"]["node_selector"] ==
        nlohmann::json::parse(R"({"kubernetes.io/hostname": "m5-2xlarge-0"})"));
}

TEST_CASE("Kueue's queue-name label becomes the workload's queue, with a notice",
          "[k8s][snapshot]") {
  const auto queued = [](std::string pod) {
    pod.insert(pod.find(R"("pod-template-hash")"),
               R"("kueue.x-k8s.io/queue-name": "research-queue", )");
    return pod;
  };
  // A bare pod of Kueue's pod integration: no owner, restartPolicy Never.
  const std::string bare = R"("kind": "Pod", "metadata": {"name": "eval-1", "labels":
      {"kueue.x-k8s.io/queue-name": "research-queue"}}, "spec": {"nodeName": "n1",
      "restartPolicy": "Never", "containers": [{"name": "c", "image": "i", "resources":
      {"limits": {"nvidia.com/gpu": 1}}}]}, "status": {"phase": "Running"})";
  const SnapshotScenario s =
      Import(OneNode(kM5),
             Pods({queued(Pod("train-x", "Job", "train", R"("cpu": 1)")), bare,
                   queued(Pod("web-abc12-x", "ReplicaSet", "web-abc12", R"("cpu": 1)"))}));
  const nlohmann::json w = Json(s)["workloads"];
  CHECK(w["train@m5-2xlarge-0"]["queue_name"] == "research-queue");
  // Kueue's pod integration: a bare pod is a Job of one pod, never retried.
  CHECK(w["eval-1@m5-2xlarge-0"]["kind"] == "Job");
  CHECK(w["eval-1@m5-2xlarge-0"]["backoff_limit"] == 0);
  CHECK(w["eval-1@m5-2xlarge-0"]["queue_name"] == "research-queue");
  CHECK_FALSE(w["web@m5-2xlarge-0"].contains("queue_name"));
  CHECK_THAT(s.warnings.at(0),
             Catch::EndsWith("Kueue's queue-name 'research-queue' on a pod of Deployment 'web', "
                             "which runs until deleted: migsim models Kueue for Jobs and pods "
                             "that end; imported outside Kueue's quota"));
  CHECK_THAT(s.notices.at(2),
             Catch::StartsWith("2 workloads carry Kueue's kueue.x-k8s.io/queue-name and wait in "
                               "its LocalQueues (default/research-queue). A snapshot cannot "
                               "show Kueue's admission state"));
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
