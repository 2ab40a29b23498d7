// Distributed training and Kueue objects from manifests: PyTorchJobs, JobSets and PodGroups
// as gangs, Kueue's ResourceFlavors, ClusterQueues and LocalQueues as the `kueue` section,
// goldens against the JSON scenarios, and bad manifests reported at their YAML paths.

#include <catch2/catch.hpp>
#include <optional>
#include <string>

#include "sim/io/k8s/manifest_objects.h"
#include "sim/io/scenario_json.h"
#include "tests/golden/scenario_runner.h"
#include "tests/support/scratch_dir.h"
#include "workloads/gang_fit.h"

namespace migsim {
namespace {

// Two p4d.24xlarge (8 A100s each) in namespace-free form; `extra` adds top-level members.
std::string WriteScenario(const test::ScratchDir& dir, const std::string& extra = "") {
  return dir.Write("s.json", R"({"name": "t", "description": "d",
    "cluster": {"nodes": {"p4d": {"type": "p4d.24xlarge", "count": 2}}},
    "job_classes": {"train": {"run_s": 600}},
    "manifests": ["k8s.yaml"],
    "manifest_overlay": {"job_classes": [{"image": "*", "job_class": "train"}]})" +
                                 extra + "}");
}

Result<ScenarioFile> LoadWith(const test::ScratchDir& dir, const std::string& yaml,
                              const std::string& extra = "") {
  dir.Write("k8s.yaml", yaml);
  return LoadScenarioFile(WriteScenario(dir, extra));
}

std::string ErrorOf(const test::ScratchDir& dir, const std::string& yaml,
                    const std::string& extra = "") {
  const Result<ScenarioFile> loaded = LoadWith(dir, yaml, extra);
  REQUIRE_FALSE(loaded.ok());
  return loaded.status().ToString();
}

// The first variant's scenario (a copy: the loaded file is a temporary).
Scenario First(const Result<ScenarioFile>& loaded) {
  if (!loaded.ok()) FAIL(loaded.status().ToString());
  return loaded.value().variants.front().second;
}

// The scenario's only workload, a gang of `workers` pods named `name`, checked.
const DistributedJobSpec& TheGang(const Scenario& s, const std::string& name, int workers,
                                  int backoff_limit, double timeout_s) {
  REQUIRE(s.workloads.size() == 1);
  const auto& job = std::get<DistributedJobSpec>(s.workloads[0]);
  CHECK(job.name == name);
  CHECK(job.workers == workers);
  CHECK(job.backoff_limit == backoff_limit);
  CHECK(job.schedule_timeout == SimTime::Seconds(timeout_s));
  return job;
}

// A pod template of `gpus` GPUs, indented for a replica spec's `template:`.
std::string TemplateYaml(int gpus, const std::string& indent, const std::string& extra = "") {
  return indent + "spec:\n" + indent + "  restartPolicy: Never\n" + extra + indent +
         "  containers:\n" + indent + "    - name: c\n" + indent + "      image: train\n" + indent +
         "      resources: {limits: {nvidia.com/gpu: " + std::to_string(gpus) + "}}\n";
}

std::string PyTorchJob(int master_gpus, int worker_gpus, int workers,
                       const std::string& run_policy = "") {
  return "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: ddp}\nspec:\n" +
         run_policy + "  pytorchReplicaSpecs:\n    Master:\n      replicas: 1\n      template:\n" +
         TemplateYaml(master_gpus, "        ") +
         "    Worker:\n      replicas: " + std::to_string(workers) + "\n      template:\n" +
         TemplateYaml(worker_gpus, "        ");
}

const std::string kQueues =
    "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata: {name: p4d}\n"
    "spec: {nodeLabels: {node.kubernetes.io/instance-type: p4d.24xlarge}}\n---\n"
    "kind: ClusterQueue\nmetadata: {name: cq}\nspec:\n  namespaceSelector: {}\n"
    "  resourceGroups:\n  - coveredResources: [nvidia.com/gpu]\n    flavors:\n"
    "    - name: p4d\n      resources:\n      - {name: nvidia.com/gpu, nominalQuota: 8}\n---\n"
    "kind: LocalQueue\nmetadata: {name: q, namespace: ml}\nspec: {clusterQueue: cq}\n";

// kQueues, then the head of an object of `kind` named `name` in namespace ml, queued in q.
std::string Queued(const std::string& kind, const std::string& name,
                   const std::string& queue = "q") {
  return kQueues + "---\nkind: " + kind + "\nmetadata:\n  name: " + name +
         "\n  namespace: ml\n  labels: {kueue.x-k8s.io/queue-name: " + queue + "}\n";
}

}  // namespace

TEST_CASE("a PyTorchJob becomes one gang of its Master and Workers", "[k8s][io][training]") {
  test::ScratchDir dir("training");
  const Scenario s =
      First(LoadWith(dir, PyTorchJob(8, 8, 1,
                                     "  runPolicy:\n    backoffLimit: 2\n    schedulingPolicy: "
                                     "{minAvailable: 2, scheduleTimeoutSeconds: 90}\n")));
  const DistributedJobSpec& job = TheGang(s, "ddp", 2, 2, 90);
  CHECK_FALSE(job.one_per_node);
  CHECK(job.local_queue == -1);
  CHECK(s.templates.at(job.tmpl.value()).gang);
}

TEST_CASE("a PyTorchJob without backoffLimit restarts without limit unless replicas never restart",
          "[k8s][io][training]") {
  test::ScratchDir dir("training");
  CHECK(std::get<DistributedJobSpec>(First(LoadWith(dir, PyTorchJob(8, 8, 1))).workloads[0])
            .backoff_limit == 1000);
  std::string never = PyTorchJob(8, 8, 1);
  never.insert(never.find("      template:"), "      restartPolicy: Never\n");
  CHECK(std::get<DistributedJobSpec>(First(LoadWith(dir, never)).workloads[0]).backoff_limit == 0);
}

TEST_CASE("a PyTorchJob larger than the cluster loads as a gang that will stay pending",
          "[k8s][io][training]") {
  // As a coscheduling PodGroup that can never reach minMember: left pending while the other
  // workloads run (`validate` and `run` warn), no input error.
  test::ScratchDir dir("training");
  const Scenario s = First(LoadWith(dir, PyTorchJob(8, 8, 3)));
  const DistributedJobSpec& job = TheGang(s, "ddp", 4, 1000, 60);
  const std::optional<GangFitProblem> problem =
      GangNeverFits(s, job.tmpl, job.workers, job.one_per_node, job.topology_key);
  REQUIRE(problem);
  CHECK(problem->message ==
        "4 workers x 8 nvidia.com/gpu = 32 nvidia.com/gpu, more than the cluster's 16");
}

TEST_CASE("a JobSet becomes one gang of all its child Jobs' pods", "[k8s][io][training]") {
  test::ScratchDir dir("training");
  const Scenario s = First(LoadWith(
      dir,
      "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata:\n  name: js\n"
      "  annotations: {alpha.jobset.sigs.k8s.io/exclusive-topology: kubernetes.io/hostname}\n"
      "spec:\n  failurePolicy: {maxRestarts: 4}\n  replicatedJobs:\n  - name: w\n"
      "    replicas: 2\n    template:\n      spec:\n        parallelism: 1\n"
      "        completions: 1\n        template:\n" +
          TemplateYaml(2, "          ")));
  const auto& job = std::get<DistributedJobSpec>(s.workloads.at(0));
  CHECK(job.workers == 2);
  CHECK(job.backoff_limit == 4);
  CHECK(job.one_per_node);
}

TEST_CASE("a PodGroup and the Job labelled with it become one gang of minMember pods",
          "[k8s][io][training]") {
  test::ScratchDir dir("training");
  const Scenario s = First(
      LoadWith(dir,
               "apiVersion: scheduling.x-k8s.io/v1alpha1\nkind: PodGroup\nmetadata: {name: pg}\n"
               "spec: {minMember: 3, scheduleTimeoutSeconds: 30}\n---\n"
               "kind: Job\nmetadata: {name: j}\nspec:\n  parallelism: 3\n  completions: 3\n"
               "  backoffLimit: 1\n  template:\n    metadata:\n"
               "      labels: {scheduling.x-k8s.io/pod-group: pg}\n" +
                   TemplateYaml(1, "    ")));
  TheGang(s, "pg", 3, 1, 30);
}

TEST_CASE("Kueue's objects from manifests queue the Jobs labelled with a LocalQueue",
          "[k8s][io][kueue]") {
  test::ScratchDir dir("training");
  const Scenario s =
      First(LoadWith(dir, Queued("Job", "j") + "spec:\n  template:\n" + TemplateYaml(4, "    ")));
  REQUIRE(s.kueue.has_value());
  REQUIRE(s.kueue->local_queues.size() == 1);
  CHECK(s.kueue->local_queues[0].name == "q");
  CHECK(s.kueue->cluster_queues.at(0).namespaces.empty());  // {}: every namespace
  CHECK(s.kueue->flavors.at(0).node_labels ==
        Labels{{"node.kubernetes.io/instance-type", "p4d.24xlarge"}});
  CHECK(std::get<JobSpec>(s.workloads.at(0)).local_queue == 0);
}

TEST_CASE("seed-scenario goldens: training and Kueue manifests give the JSON scenarios' figures",
          "[k8s][io][golden]") {
  for (const auto& [json_name, manifest_name] :
       {std::pair<std::string, std::string>{"distributed-training", "manifests-training"},
        {"kueue-quotas", "manifests/kueue/kueue-quotas"}}) {
    testing::ScenarioRun json, manifests;
    testing::RunScenarioFile(json_name, json);
    testing::RunScenarioFile(manifest_name, manifests);
    CHECK(json.report.variants.size() <= manifests.report.variants.size());
    for (size_t i = 0; i < json.report.variants.size(); ++i) {
      const VariantResult& a = json.report.variants[i];
      const VariantResult& b = testing::Variant(manifests, a.name);
      INFO(json_name << " " << a.name);
      CHECK(a.metrics.pods.submitted == b.metrics.pods.submitted);
      CHECK(a.metrics.pods.completed == b.metrics.pods.completed);
      CHECK(a.metrics.pods.deleted == b.metrics.pods.deleted);
      CHECK(a.metrics.preemptions == b.metrics.preemptions);
      CHECK(a.metrics.makespan_s == b.metrics.makespan_s);
      CHECK(a.metrics.queueing.mean_s == b.metrics.queueing.mean_s);
      CHECK(a.metrics.queueing.max_s == b.metrics.queueing.max_s);
      CHECK(a.metrics.gpu_allocation_ratio == b.metrics.gpu_allocation_ratio);
      CHECK(a.metrics.jobs.completion.mean_s == b.metrics.jobs.completion.mean_s);
      REQUIRE(a.metrics.cluster_queues.size() == b.metrics.cluster_queues.size());
      for (size_t q = 0; q < a.metrics.cluster_queues.size(); ++q) {
        CHECK(a.metrics.cluster_queues[q].evictions == b.metrics.cluster_queues[q].evictions);
        CHECK(a.metrics.cluster_queues[q].admission.mean_s ==
              b.metrics.cluster_queues[q].admission.mean_s);
      }
    }
  }
  testing::ScenarioRun training;
  testing::RunScenarioFile("manifests-training", training);
  const RunMetrics& pytorch = testing::Variant(training, "base").metrics;
  const RunMetrics& podgroup = testing::Variant(training, "base-podgroup").metrics;
  CHECK(pytorch.makespan_s == podgroup.makespan_s);
  CHECK(pytorch.queueing.max_s == podgroup.queueing.max_s);
  CHECK(podgroup.queueing.max_s == Approx(1230));  // the gang's wait
  testing::ScenarioRun kueue;
  testing::RunScenarioFile("manifests/kueue/kueue-quotas", kueue);
  CHECK(testing::Variant(kueue, "reclaim").metrics.cluster_queues.at(0).evictions == 2);
  CHECK(testing::Variant(kueue, "no-borrowing").metrics.cluster_queues.at(0).admission.mean_s ==
        Approx(1814));
}

}  // namespace migsim

namespace migsim {

TEST_CASE("bad training manifests are reported at their YAML paths", "[k8s][io][training]") {
  test::ScratchDir dir("training");
  const std::string file = dir.Path("k8s.yaml");
  CHECK(ErrorOf(dir, PyTorchJob(4, 8, 1)) ==
        file +
            ": document 1: spec.pytorchReplicaSpecs.Worker.template (line 18): the pods of Worker "
            "differ from those of Master in their resources: migsim runs a gang of alike pods "
            "(give every replica the same resources, scheduling fields and job class)");
  CHECK(ErrorOf(dir,
                PyTorchJob(8, 8, 1, "  runPolicy:\n    schedulingPolicy: {minAvailable: 1}\n")) ==
        file +
            ": document 1: spec.runPolicy.schedulingPolicy.minAvailable (line 6): a gang of fewer "
            "pods than the job's 2 is not modelled: migsim co-schedules all of them (remove "
            "minAvailable or set it to 2)");
  std::string chief = PyTorchJob(8, 8, 1);
  chief.replace(chief.find("Worker:"), 7, "Chief:");
  CHECK(ErrorOf(dir, chief) == file +
                                   ": document 1: spec.pytorchReplicaSpecs.Chief (line 16): "
                                   "unknown replica type 'Chief' (valid: Master, Worker)");
  CHECK(ErrorOf(dir,
                "kind: JobSet\nmetadata: {name: js}\nspec:\n  replicatedJobs:\n  - name: w\n"
                "    template:\n      spec:\n        parallelism: 2\n        completions: 4\n"
                "        template:\n" +
                    TemplateYaml(1, "          ")) ==
        file +
            ": document 1: spec.replicatedJobs[0].template.spec.completions (line 9): a child Job "
            "whose completions (4) differ from its parallelism (2) does not run as one gang");
  CHECK(ErrorOf(dir,
                "apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: "
                "pg}\nspec: {minMember: 2}\n") ==
        file +
            ": document 1: apiVersion (line 1): only the coscheduling plugin's PodGroup "
            "(scheduling.x-k8s.io) is simulated");
  CHECK(ErrorOf(dir,
                "apiVersion: scheduling.x-k8s.io/v1alpha1\nkind: PodGroup\nmetadata: {name: "
                "pg}\nspec: {minMember: 2}\n---\nkind: Job\nmetadata: {name: j}\nspec:\n  "
                "template:\n    metadata:\n      labels: {scheduling.x-k8s.io/pod-group: pg}\n" +
                    TemplateYaml(1, "    ")) ==
        file +
            ": document 1: spec.minMember (line 4): its 1 member object(s) are not one gang of "
            "minMember pods: migsim gangs one Job of parallelism = completions = minMember, or "
            "minMember Pods with restartPolicy Never or OnFailure");
  CHECK(ErrorOf(dir,
                "kind: Job\nmetadata: {name: j}\nspec:\n  template:\n    metadata:\n      labels: "
                "{scheduling.x-k8s.io/pod-group: pgx}\n" +
                    TemplateYaml(1, "    ")) ==
        file +
            ": document 1 (line 1): its pods name PodGroup 'pgx', which no manifest defines in "
            "namespace 'default': the coscheduling plugin never schedules them");
}

TEST_CASE("a JobSet of more pods than one gang may have is refused", "[k8s][io][training]") {
  test::ScratchDir dir("training");
  CHECK(ErrorOf(dir,
                "kind: JobSet\nmetadata: {name: js}\nspec:\n  replicatedJobs:\n  - name: w\n"
                "    replicas: 1000\n    template:\n      spec:\n        parallelism: 1000\n"
                "        completions: 1000\n        template:\n" +
                    TemplateYaml(1, "          ")) ==
        dir.Path("k8s.yaml") +
            ": document 1: spec.replicatedJobs[0] (line 5): more than 100000 pods in one gang");
}

TEST_CASE("bad Kueue manifests are reported at their YAML paths", "[k8s][io][kueue]") {
  test::ScratchDir dir("training");
  const std::string file = dir.Path("k8s.yaml");
  std::string lending = kQueues;
  lending.replace(lending.find("nominalQuota: 8}"), 16, "nominalQuota: 8, lendingLimit: 9}");
  CHECK(ErrorOf(dir, lending) ==
        file +
            ": document 2: spec.resourceGroups[0].flavors[0].resources[0].lendingLimit (line 15): "
            "lendingLimit needs a cohort: without one there is no queue to borrow from or lend to");
  std::string no_selector = kQueues;
  no_selector.replace(no_selector.find("  namespaceSelector: {}\n"), 24, "");
  CHECK(ErrorOf(dir, no_selector) ==
        file +
            ": document 2: spec (line 9): missing namespaceSelector: Kueue's default selects no "
            "namespace, so the queue would admit nothing (namespaceSelector: {} selects every "
            "namespace)");
  std::string labels = kQueues;
  labels.replace(labels.find("namespaceSelector: {}"), 21,
                 "namespaceSelector: {matchLabels: {team: a}}");
  CHECK(ErrorOf(dir, labels) ==
        file +
            ": document 2: spec.namespaceSelector.matchLabels.team (line 9): migsim's namespaces "
            "have no labels but kubernetes.io/metadata.name: select namespaces by name");
  std::string flavor = kQueues;
  flavor.replace(flavor.find("- name: p4d"), 11, "- name: p5");
  CHECK(ErrorOf(dir, flavor) == file +
                                    ": document 2: spec.resourceGroups[0].flavors[0].name (line "
                                    "13): unknown ResourceFlavor 'p5' (valid: p4d)");
  CHECK(
      ErrorOf(
          dir, kQueues,
          R"(, "kueue": {"resourceFlavors": {}, "clusterQueues": {"cq": {"resourceGroups": []}}, "localQueues": {}})") ==
      file +
          ": document 2 (line 6): ClusterQueue 'cq' is defined twice (in the scenario's kueue "
          "section or the manifests)");
  CHECK(ErrorOf(dir, kQueues +
                         "---\nkind: Job\nmetadata:\n  name: j\n  namespace: ml\n  labels: "
                         "{kueue.x-k8s.io/queue-name: qq}\nspec:\n  template:\n" +
                         TemplateYaml(4, "    ")) ==
        file +
            ": document 4: metadata.labels.kueue.x-k8s.io/queue-name (line 25): unknown LocalQueue "
            "'qq' (valid: q) in namespace 'ml'");
  CHECK(ErrorOf(dir, kQueues +
                         "---\nkind: Job\nmetadata:\n  name: j\n  namespace: ml\n  labels: "
                         "{kueue.x-k8s.io/queue-name: q}\nspec:\n  parallelism: 3\n  completions: "
                         "3\n  template:\n" +
                         TemplateYaml(4, "    ")) ==
        file +
            ": document 4 (line 21): ClusterQueue 'cq' could never admit this workload (3 pods at "
            "once): it asks for 12 nvidia.com/gpu, more than it could ever hold in one flavor (at "
            "most 8)");
  CHECK(ErrorOf(dir, kQueues + "---\nkind: Deployment\nmetadata:\n  name: d\n  namespace: ml\n  "
                               "labels: {kueue.x-k8s.io/queue-name: q}\nspec:\n  template:\n    "
                               "spec:\n      containers: [{name: c, image: i}]\n") ==
        file +
            ": document 4: metadata.labels.kueue.x-k8s.io/queue-name (line 25): Kueue manages "
            "Jobs, PyTorchJobs, JobSets and Pods that end in migsim, not a Deployment");
}

}  // namespace migsim

namespace migsim {

TEST_CASE("training and Kueue fields migsim does not model are warnings with their paths",
          "[k8s][io][training]") {
  const Result<k8s::ManifestSet> set = k8s::ParseManifests(
      PyTorchJob(8, 8, 1, "  elasticPolicy: {minReplicas: 1}\n") +
          "---\nkind: JobSet\nmetadata: {name: js}\nspec:\n  successPolicy: {operator: Any}\n"
          "  replicatedJobs:\n  - name: w\n    template:\n      spec:\n        template:\n" +
          TemplateYaml(1, "          ") +
          "---\nkind: ClusterQueue\nmetadata: {name: cq}\nspec:\n  flavorFungibility: {}\n"
          "  namespaceSelector: {}\n",
      "k.yaml");
  if (!set.ok()) FAIL(set.status().ToString());
  CHECK(set.value().warnings ==
        std::vector<std::string>{
            "k.yaml: document 1: spec.elasticPolicy (line 5): elastic training is not "
            "modelled: the job runs with all its replicas, as one gang",
            "k.yaml: document 2: spec.successPolicy.operator (line 29): not modelled: the JobSet "
            "succeeds when all its pods do",
            "k.yaml: document 3: spec.flavorFungibility (line 45): not modelled: a workload takes "
            "the first flavor that fits, borrowing if need be"});
}

TEST_CASE("a queued PyTorchJob is admitted whole, and JSON workloads may use manifest queues",
          "[k8s][io][kueue]") {
  test::ScratchDir dir("training");
  std::string queued = PyTorchJob(4, 4, 1);
  queued.replace(queued.find("metadata: {name: ddp}"), 21,
                 "metadata: {name: ddp, namespace: ml, labels: {kueue.x-k8s.io/queue-name: q}}");
  const Scenario s = First(LoadWith(dir, kQueues + "---\n" + queued,
                                    R"(, "workloads": {"w": {"kind": "Job", "namespace": "ml",
                                    "queue_name": "q", "template": {"job_class": "train",
                                    "resources": {"nvidia.com/gpu": 1}}}})"));
  REQUIRE(s.workloads.size() == 2);
  CHECK(std::get<JobSpec>(s.workloads[0]).local_queue == 0);
  CHECK(std::get<DistributedJobSpec>(s.workloads[1]).local_queue == 0);
  // The gang's pods get the flavor's node labels once admitted (a flavored template).
  CHECK(s.kueue->flavored_templates.size() == 2);
}

TEST_CASE("a queued Pod that ends becomes a Job of one pod that is never retried",
          "[k8s][io][kueue]") {
  test::ScratchDir dir("training");
  const Scenario s = First(LoadWith(dir, Queued("Pod", "p") + TemplateYaml(1, "")));
  const auto& job = std::get<JobSpec>(s.workloads.at(0));
  CHECK(job.name == "p");
  CHECK(job.completions == 1);
  CHECK(job.parallelism == 1);
  CHECK(job.backoff_limit == 0);
  CHECK(job.local_queue == 0);
}

TEST_CASE("a LocalQueue of the manifests named as one of the kueue section is an error",
          "[k8s][io][kueue]") {
  test::ScratchDir dir("training");
  CHECK(ErrorOf(dir, kQueues,
                R"(, "kueue": {"resourceFlavors": {}, "clusterQueues": {}, "localQueues":
                {"q": {"namespace": "ml", "clusterQueue": "cq"}}})") ==
        dir.Path("k8s.yaml") +
            ": document 3 (line 17): LocalQueue 'q' is defined twice in namespace 'ml'");
}

}  // namespace migsim
