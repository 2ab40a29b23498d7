// ParseManifests: documents, kinds, the scheduling fields of pod specs, the exact errors
// and the warnings for what migsim does not model.

#include <catch2/catch.hpp>
#include <string>

#include "sim/io/k8s/manifest_objects.h"

namespace migsim::k8s {
namespace {

ManifestSet Parsed(const std::string& text) {
  Result<ManifestSet> set = ParseManifests(text, "k8s/a.yaml");
  if (!set.ok()) FAIL(set.status().ToString());
  return std::move(set).value();
}

std::string ErrorOf(const std::string& text) {
  Result<ManifestSet> set = ParseManifests(text, "k8s/a.yaml");
  REQUIRE_FALSE(set.ok());
  return set.status().ToString();
}

// A Deployment whose pod spec is `spec` (indented for `spec.template.spec`, 6 spaces).
std::string Deployment(const std::string& spec, const std::string& name = "web") {
  return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: " + name +
         "\nspec:\n  replicas: 3\n  template:\n    metadata:\n      labels: {app: web}\n"
         "    spec:\n" +
         spec;
}

const std::string kOneGpu =
    "      containers:\n"
    "        - name: c\n"
    "          image: bert:1.0\n"
    "          resources:\n"
    "            limits:\n"
    "              nvidia.com/gpu: 1\n";

const PodSpecModel& SpecOf(const ManifestObject& o) {
  return std::get<ReplicatedObject>(o.body).pod.spec;
}

}  // namespace

TEST_CASE("a multi-document file and a List give every object in order", "[k8s]") {
  const ManifestSet set = Parsed(Deployment(kOneGpu) + "---\n" +
                                 "kind: List\nitems:\n"
                                 "  - kind: PriorityClass\n    metadata: {name: high}\n"
                                 "    value: 1000\n    preemptionPolicy: Never\n"
                                 "  - kind: Service\n    metadata: {name: web}\n"
                                 "---\n");
  REQUIRE(set.objects.size() == 2);
  CHECK(set.objects[0].kind == "Deployment");
  CHECK(set.objects[0].name == "web");
  CHECK(set.objects[0].ns == "default");
  CHECK(std::get<ReplicatedObject>(set.objects[0].body).replicas == 3);
  const auto& pc = std::get<PriorityClass>(set.objects[1].body);
  CHECK(pc.name == "high");
  CHECK(pc.value == 1000);
  CHECK(pc.preemption == PreemptionPolicy::kNever);
  CHECK(set.warnings.empty());  // a Service cannot change scheduling: ignored silently
}

TEST_CASE("requests default to limits and init containers count by Kubernetes' max rule", "[k8s]") {
  const ManifestSet set = Parsed(Deployment(
      "      initContainers:\n"
      "        - {name: fetch, image: busybox, resources: {requests: {cpu: '4', memory: 1Gi}}}\n"
      "        - {name: proxy, image: envoy, restartPolicy: Always,\n"
      "           resources: {requests: {cpu: 500m}}}\n"
      "      containers:\n"
      "        - name: a\n          image: bert:1.0\n"
      "          resources:\n"
      "            requests: {cpu: '1', nvidia.com/mig-1g.5gb: 1}\n"
      "            limits: {cpu: '2', memory: 2Gi, nvidia.com/mig-1g.5gb: 1}\n"
      "        - {name: b, image: side, resources: {limits: {cpu: 250m, nvidia.com/gpu: 2}}}\n"));
  const PodSpecModel& spec = SpecOf(set.objects.at(0));
  // Containers: 1 + 0.25 cpu, 2 Gi (a's limit); the sidecar adds 0.5; the init's 4 cpu wins.
  CHECK(spec.cpu_milli == 4000);
  CHECK(spec.memory_mib == 2048);
  CHECK(spec.extended == std::vector<std::pair<std::string, int32_t>>{
                             {"nvidia.com/gpu", 2}, {"nvidia.com/mig-1g.5gb", 1}});
  REQUIRE(spec.images.size() == 4);
  CHECK(spec.images[0].image == "bert:1.0");
}

TEST_CASE("node selectors, In affinity, tolerations and the priority class are kept", "[k8s]") {
  const ManifestSet set = Parsed(
      Deployment(kOneGpu + "      nodeSelector: {nvidia.com/gpu.product: A100-SXM4-40GB}\n"
                           "      priorityClassName: high\n"
                           "      terminationGracePeriodSeconds: 5\n"
                           "      tolerations:\n"
                           "        - {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}\n"
                           "      affinity:\n"
                           "        nodeAffinity:\n"
                           "          requiredDuringSchedulingIgnoredDuringExecution:\n"
                           "            nodeSelectorTerms:\n"
                           "              - matchExpressions:\n"
                           "                  - {key: zone, operator: In, values: [b, a]}\n"));
  const PodSpecModel& spec = SpecOf(set.objects.at(0));
  CHECK(spec.node_selector == Labels{{"nvidia.com/gpu.product", "A100-SXM4-40GB"}});
  CHECK(spec.node_affinity == NodeAffinity{{"zone", {"a", "b"}}});
  REQUIRE(spec.tolerations.size() == 1);
  CHECK(spec.tolerations[0].op == TolerationOperator::kExists);
  CHECK(spec.priority_class == "high");
  CHECK(spec.termination_grace == SimTime::Seconds(5));
}

TEST_CASE("errors name the file, the document, the YAML path and the line", "[k8s]") {
  const std::string bad_gpu = "---\n" + Deployment(
                                            "      containers:\n"
                                            "        - name: c\n"
                                            "          image: bert:1.0\n"
                                            "          resources:\n"
                                            "            limits:\n"
                                            "              nvidia.com/gpu: two\n");
  CHECK(ErrorOf(Deployment(kOneGpu) + bad_gpu) ==
        "k8s/a.yaml: document 2: spec.template.spec.containers[0].resources.limits.nvidia.com/gpu "
        "(line 33): not a quantity: 'two'");
  CHECK(ErrorOf("kind: Job\nmetadata: {name: j}\nspec:\n  template:\n    spec:\n" + kOneGpu) ==
        "k8s/a.yaml: document 1: spec.template.spec.restartPolicy (line 6): a Job's pods need "
        "restartPolicy Never or OnFailure, got ''");
  CHECK(ErrorOf(Deployment(kOneGpu + "      schedulerName: volcano\n")) ==
        "k8s/a.yaml: document 1: spec.template.spec.schedulerName (line 17): pods for scheduler "
        "'volcano' are never scheduled by kube-scheduler, the only scheduler migsim simulates "
        "(remove schedulerName or set it to default-scheduler)");
  CHECK(ErrorOf("kind: Deployment\nmetadata: {name: x}\nspec:\n  replicas: '3'\n") ==
        "k8s/a.yaml: document 1: spec.replicas (line 4): expected an integer, got '3'");
  CHECK(ErrorOf("metadata: {name: x}\n") ==
        "k8s/a.yaml: document 1 (line 1): missing required field 'kind'");
  CHECK(ErrorOf("kind: Pod\nspec: [\n") ==
        "k8s/a.yaml:line 3, column 1: malformed YAML: end of sequence flow not found");
}

TEST_CASE("a stray comma outside a flow collection is an error, not an endless loop", "[k8s]") {
  // Found by the k8s_manifests fuzz target (fuzz/corpus/k8s_manifests/regress-stray-comma.yaml):
  // yaml-cpp's LoadAll alone never returns on these texts.
  CHECK(ErrorOf(",") ==
        "k8s/a.yaml:line 1, column 1: malformed YAML: unexpected ',' where a document or value "
        "should begin");
  CHECK(ErrorOf("[a],") ==
        "k8s/a.yaml:line 1, column 4: malformed YAML: unexpected ',' where a document or value "
        "should begin");
  CHECK(ErrorOf("kind: Pod\nmetadata: {name: p}\n...\n,\n") ==
        "k8s/a.yaml:line 4, column 1: malformed YAML: unexpected ',' where a document or value "
        "should begin");
  CHECK(Parsed("---\n---\n...\n---\n").objects.empty());
}

TEST_CASE("a text that is not UTF-8 is an error at its first bad byte, not a crash", "[k8s]") {
  // Found by the k8s_manifests fuzz target (fuzz/corpus/k8s_manifests/regress-not-utf8.yaml):
  // a ClusterQueue's resource name with a stray 0xc7 made the JSON writer throw.
  CHECK(ErrorOf("kind: Pod\nmetadata:\n  name: p\xc7q\n") ==
        "k8s/a.yaml:line 3, column 10: not valid UTF-8 (byte 0xc7 at byte offset 29)");
  CHECK(ErrorOf("\xff") ==
        "k8s/a.yaml:line 1, column 1: not valid UTF-8 (byte 0xff at byte offset 0)");
  // An escape cannot make one: yaml-cpp refuses a lone surrogate.
  CHECK(ErrorOf("kind: Pod\nmetadata: {name: \"p\\ud800\"}\n") ==
        "k8s/a.yaml:line 2, column 26: malformed YAML: invalid unicode: 55296");
}

TEST_CASE("a control character YAML does not allow is an error at its byte", "[k8s]") {
  // Found by the snapshot_import fuzz target (fuzz/corpus/snapshot_import/regress-nul-byte.txt):
  // yaml-cpp read a NUL inside a label as the end of its input and handed on the rest
  // mangled, bytes that are not UTF-8, which the JSON writer refused.
  CHECK(ErrorOf(std::string("kind: Pod\nmetadata:\n  name: p\0q\n", 30)) ==
        "k8s/a.yaml:line 3, column 10: a control character YAML does not allow (byte 0x00 at "
        "byte offset 29)");
  CHECK(ErrorOf("kind: Pod\x1a\n") ==
        "k8s/a.yaml:line 1, column 10: a control character YAML does not allow (byte 0x1a at "
        "byte offset 9)");
  CHECK(ErrorOf("kind: Pod\x7f\n") ==
        "k8s/a.yaml:line 1, column 10: a control character YAML does not allow (byte 0x7f at "
        "byte offset 9)");
  // Tabs, CR LF line ends and escapes in double-quoted scalars are allowed.
  CHECK(Parsed("kind: Pod\r\nmetadata:\r\n  name: \"p\\x00\"\t\r\nspec:\r\n  containers:\r\n"
               "  - {name: c, image: i}\r\n")
            .objects.size() == 1);
}

TEST_CASE("a required node affinity migsim cannot honour is an error, not dropped", "[k8s]") {
  const std::string affinity =
      "      affinity:\n        nodeAffinity:\n"
      "          requiredDuringSchedulingIgnoredDuringExecution:\n"
      "            nodeSelectorTerms:\n              - matchExpressions:\n"
      "                  - {key: gpu, operator: Exists}\n";
  CHECK(ErrorOf(Deployment(kOneGpu + affinity)) ==
        "k8s/a.yaml: document 1: spec.template.spec.affinity.nodeAffinity."
        "requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0]."
        "operator (line 22): operator 'Exists' is not modelled: migsim's node affinity supports "
        "In only (use nodeSelector or an In expression)");
}

TEST_CASE("fields that would change scheduling and kinds migsim does not simulate are warnings",
          "[k8s]") {
  const ManifestSet set = Parsed(
      Deployment(kOneGpu + "      topologySpreadConstraints:\n"
                           "        - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone}\n"
                           "      affinity:\n        podAntiAffinity: {}\n"
                           "      livenessProbe: {}\n") +
      "---\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\n");
  CHECK(set.warnings ==
        std::vector<std::string>{
            "k8s/a.yaml: document 1: spec.template.spec.affinity.podAntiAffinity (line 20): "
            "inter-pod affinity is not modelled: pods are placed as if without it",
            "k8s/a.yaml: document 1: spec.template.spec.topologySpreadConstraints (line 18): "
            "topology spread constraints (on topology.kubernetes.io/zone) are not modelled: pods "
            "are placed as if unconstrained",
            "k8s/a.yaml: document 2: kind (line 23): kind HorizontalPodAutoscaler is not "
            "simulated: the object is ignored"});
}

TEST_CASE("Jobs, CronJobs and budgets keep the fields their controllers use", "[k8s]") {
  const std::string pod =
      "      template:\n        spec:\n          restartPolicy: Never\n"
      "          containers: [{name: c, image: train}]\n";
  const ManifestSet set = Parsed(
      "kind: CronJob\nmetadata: {name: nightly, namespace: ml}\nspec:\n"
      "  schedule: '0 2 * * *'\n  jobTemplate:\n    spec:\n      completions: 4\n"
      "      parallelism: 2\n      backoffLimit: 1\n"
      "      podFailurePolicy:\n        rules:\n"
      "          - {action: Ignore, onPodConditions: [{type: DisruptionTarget}]}\n" +
      pod +
      "---\nkind: PodDisruptionBudget\nmetadata: {name: b}\n"
      "spec: {maxUnavailable: 25%, selector: {matchLabels: {app: web}}}\n");
  const auto& cron = std::get<CronJobObject>(set.objects.at(0).body);
  CHECK(set.objects[0].ns == "ml");
  CHECK(cron.schedule == "0 2 * * *");
  CHECK(cron.job.completions == 4);
  CHECK(cron.job.parallelism == 2);
  CHECK(cron.job.backoff_limit == 1);
  CHECK(cron.job.on_disruption == DisruptionAction::kIgnore);
  const auto& budget = std::get<BudgetObject>(set.objects.at(1).body);
  CHECK(budget.match_labels == Labels{{"app", "web"}});
  REQUIRE(budget.max_unavailable);
  CHECK(budget.max_unavailable->percent);
  CHECK(budget.max_unavailable->value == 25);
}

}  // namespace migsim::k8s
