// DRA from manifests: DeviceClasses, ResourceClaimTemplates, ResourceClaims and pods'
// resourceClaims give the device classes and claims the scenario's JSON gives, bad objects
// are reported at their YAML paths, what is not modelled is warned about, and
// scenarios/manifests-dra.json has the figures of dra-dynamic-mig.json (issue 14).

#include <catch2/catch.hpp>
#include <string>

#include "policies/first_fit.h"
#include "sim/io/k8s/manifest_objects.h"
#include "sim/io/scenario_json.h"
#include "tests/golden/scenario_runner.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

// Two p4d.24xlarge under DRA with DynamicMIG; `extra` adds top-level members.
std::string ScenarioJson(const std::string& extra) {
  return R"({"name": "t", "description": "d", "horizon_s": 3600,
    "cluster": {"nodes": {"p4d": {"type": "p4d.24xlarge", "count": 2,
                                  "dra": {"dynamic_mig": true}}}},
    "job_classes": {"infer": {"run_s": 60}})" +
         extra + "}";
}

const std::string kManifestOverlay =
    R"(, "manifests": ["k8s.yaml"],
    "manifest_overlay": {"job_classes": [{"image": "*", "job_class": "infer"}]})";

Result<ScenarioFile> LoadManifests(const test::ScratchDir& dir, const std::string& yaml) {
  dir.Write("k8s.yaml", yaml);
  return LoadScenarioFile(dir.Write("s.json", ScenarioJson(kManifestOverlay)));
}

std::string ErrorOf(const test::ScratchDir& dir, const std::string& yaml) {
  const Result<ScenarioFile> loaded = LoadManifests(dir, yaml);
  REQUIRE_FALSE(loaded.ok());
  return loaded.status().ToString();
}

Scenario First(const Result<ScenarioFile>& loaded) {
  if (!loaded.ok()) FAIL(loaded.status().ToString());
  return loaded.value().variants.front().second;
}

std::vector<std::string> WarningsOf(const std::string& yaml) {
  const Result<k8s::ManifestSet> set = k8s::ParseManifests(yaml, "k8s/a.yaml");
  if (!set.ok()) FAIL(set.status().ToString());
  return set.value().warnings;
}

const std::string kDeviceClass =
    "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: a100-mig}\nspec:\n"
    "  selectors:\n"
    "  - cel: {expression: 'device.attributes[\"gpu.nvidia.com\"].type == \"mig\"'}\n";

// A ResourceClaimTemplate `name` of one `exactly` request for a device of `device_class`
// with MIG profile `profile`.
std::string ExactlyTemplate(const std::string& name, const std::string& device_class,
                            const std::string& profile) {
  return "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: " + name +
         "}\nspec:\n  spec:\n    devices:\n      requests:\n      - name: mig\n        exactly:\n"
         "          deviceClassName: " +
         device_class +
         "\n          selectors:\n"
         "          - cel: {expression: 'device.attributes[\"gpu.nvidia.com\"].profile == \"" +
         profile + "\"'}\n";
}

// A Deployment whose pod spec has `claims` (indented for spec.template.spec, 6 spaces) and
// one container with `container_claims` (its resources.claims, a flow list).
std::string Deployment(const std::string& claims, const std::string& container_claims = "[]") {
  return "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 2\n"
         "  template:\n    spec:\n" +
         claims +
         "      containers:\n      - name: c\n        image: web\n"
         "        resources: {claims: " +
         container_claims + "}\n";
}

const std::string kClaimFromTemplate =
    "      resourceClaims:\n      - name: gpu\n        resourceClaimTemplateName: mig-1g\n";

}  // namespace

TEST_CASE("a DeviceClass, a ResourceClaimTemplate and a Deployment give the JSON's claims",
          "[k8s][io][dra]") {
  test::ScratchDir dir("dra");
  const Scenario manifests = First(
      LoadManifests(dir, kDeviceClass + "---\n" + ExactlyTemplate("mig-1g", "a100-mig", "1g.5gb") +
                             "---\n" + Deployment(kClaimFromTemplate, "[{name: gpu}]")));
  const Scenario json = First(LoadScenarioFile(dir.Write("j.json", ScenarioJson(R"(,
    "device_classes": {"a100-mig": {"selectors": [
      {"cel": {"expression": "device.attributes[\"gpu.nvidia.com\"].type == \"mig\""}}]}},
    "workloads": {"web": {"kind": "Deployment", "replicas": 2, "template": {
      "resource_claims": [{"name": "gpu", "requests": [{"name": "mig", "exactly": {
        "deviceClassName": "a100-mig",
        "selectors": ["device.attributes[\"gpu.nvidia.com\"].profile == \"1g.5gb\""]}}]}]}}})"))));
  REQUIRE(manifests.device_classes.size() == 3);
  REQUIRE(json.device_classes.size() == 3);
  CHECK(manifests.device_classes[2].name == "a100-mig");
  CHECK(manifests.device_classes[2].selectors == json.device_classes[2].selectors);
  REQUIRE(manifests.templates.size() == 1);
  REQUIRE(manifests.templates[0].resource_claims.size() == 1);
  CHECK(manifests.templates[0].resource_claims[0].name == "gpu");
  CHECK(manifests.templates[0].resource_claims == json.templates[0].resource_claims);
  const auto& web = std::get<DeploymentSpec>(manifests.workloads.at(0));
  CHECK(web.replicas == 2);
}

TEST_CASE(
    "firstAvailable, allocationMode and count are read as the JSON reads them, and "
    "v1beta1's requests without exactly as v1's",
    "[k8s][io][dra]") {
  test::ScratchDir dir("dra");
  const std::string first_available =
      "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: mig-1g}\n"
      "spec:\n  spec:\n    devices:\n      requests:\n      - name: mig\n        firstAvailable:\n"
      "        - {name: 2g, deviceClassName: mig.nvidia.com, count: 2}\n"
      "        - {name: all, deviceClassName: gpu.nvidia.com, allocationMode: All}\n";
  const Scenario s =
      First(LoadManifests(dir, first_available + "---\n" + Deployment(kClaimFromTemplate)));
  const dra::DeviceRequest& request = s.templates.at(0).resource_claims.at(0).requests.at(0);
  CHECK(request.first_available);
  REQUIRE(request.alternatives.size() == 2);
  CHECK(request.alternatives[0].name == "2g");
  CHECK(request.alternatives[0].count == 2);
  CHECK(request.alternatives[1].device_class == "gpu.nvidia.com");
  CHECK(request.alternatives[1].mode == dra::AllocationMode::kAll);

  std::string v1beta1 = ExactlyTemplate("mig-1g", "mig.nvidia.com", "1g.5gb");
  v1beta1.replace(v1beta1.find("/v1"), 3, "/v1beta1");
  const std::string exactly = "        exactly:\n";
  v1beta1.replace(v1beta1.find(exactly), exactly.size(), "");
  for (const std::string from : {"deviceClassName", "selectors", "- cel"}) {
    v1beta1.replace(v1beta1.find("  " + from), 2, "");  // up one level, into the request
  }
  const Scenario beta =
      First(LoadManifests(dir, v1beta1 + "---\n" + Deployment(kClaimFromTemplate)));
  const Scenario v1 =
      First(LoadManifests(dir, ExactlyTemplate("mig-1g", "mig.nvidia.com", "1g.5gb") + "---\n" +
                                   Deployment(kClaimFromTemplate)));
  CHECK(beta.templates.at(0).resource_claims == v1.templates.at(0).resource_claims);
}

TEST_CASE("NVIDIA's own DeviceClasses, as a cluster exports them, change nothing",
          "[k8s][io][dra]") {
  test::ScratchDir dir("dra");
  const std::string nvidia =
      "apiVersion: resource.k8s.io/v1beta1\nkind: DeviceClass\nmetadata: {name: mig.nvidia.com}\n"
      "spec:\n  selectors:\n  - cel:\n      expression: \"device.driver == 'gpu.nvidia.com' && "
      "device.attributes['gpu.nvidia.com'].type == 'mig'\"\n";
  const Scenario s = First(LoadManifests(dir, nvidia + "---\n" + Deployment("")));
  CHECK(s.device_classes.size() == 2);
  std::string other = nvidia;
  other.replace(other.find("'mig'"), 5, "'gpu'");
  CHECK(ErrorOf(dir, other + "---\n" + Deployment("")) ==
        dir.Path("k8s.yaml") +
            ": document 1: spec.selectors (line 6): DeviceClass 'mig.nvidia.com' is NVIDIA's DRA "
            "driver's, with the selector 'device.driver == \"gpu.nvidia.com\" && "
            "device.attributes[\"gpu.nvidia.com\"].type == \"mig\"': other selectors are not "
            "modelled (give your class another name)");
}

TEST_CASE("bad DRA objects and claims are reported at their YAML paths", "[k8s][io][dra]") {
  test::ScratchDir dir("dra");
  const std::string file = dir.Path("k8s.yaml");
  const std::string pod = "---\n" + Deployment(kClaimFromTemplate);
  SECTION("an unknown device class in a template") {
    CHECK(ErrorOf(dir, ExactlyTemplate("mig-1g", "a100", "1g.5gb") + pod) ==
          file +
              ": document 1: spec.spec.devices.requests[0].exactly.deviceClassName (line 10): "
              "unknown device class 'a100' (valid: gpu.nvidia.com, mig.nvidia.com)");
  }
  SECTION("an unknown template, also in another namespace") {
    const std::string other_ns =
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\n"
        "metadata: {name: mig-1g, namespace: ml}\n"
        "spec: {spec: {devices: {requests: [{name: m, exactly: {deviceClassName: "
        "mig.nvidia.com}}]}}}\n";
    CHECK(ErrorOf(dir, ExactlyTemplate("mig-2g", "mig.nvidia.com", "2g.10gb") + "---\n" + other_ns +
                           pod) ==
          file +
              ": document 3: spec.template.spec.resourceClaims[0].resourceClaimTemplateName "
              "(line 28): unknown ResourceClaimTemplate 'mig-1g' (valid: mig-2g) in namespace "
              "'default'");
  }
  SECTION("a shared ResourceClaim no manifest defines") {
    CHECK(ErrorOf(dir, Deployment("      resourceClaims:\n      - name: gpu\n"
                                  "        resourceClaimName: shared-gpu\n")) ==
          file +
              ": document 1: spec.template.spec.resourceClaims[0].resourceClaimName (line 10): "
              "unknown ResourceClaim 'shared-gpu' (none is defined) in namespace 'default'");
  }
  SECTION("a container's claim the pod does not have") {
    CHECK(ErrorOf(dir, ExactlyTemplate("mig-1g", "mig.nvidia.com", "1g.5gb") + "---\n" +
                           Deployment(kClaimFromTemplate, "[{name: gpus}]")) ==
          file +
              ": document 2: spec.template.spec.containers[0].resources.claims[0].name "
              "(line 27): unknown claim 'gpus' (valid: gpu): a container's resources.claims "
              "name the pod's spec.resourceClaims");
  }
  SECTION("two claims of one name in a pod") {
    CHECK(ErrorOf(dir, Deployment(kClaimFromTemplate +
                                  "      - {name: gpu, resourceClaimTemplateName: x}\n")) ==
          file +
              ": document 1: spec.template.spec.resourceClaims[1].name (line 11): claim name "
              "'gpu' is used twice");
  }
  SECTION("a selector migsim cannot evaluate, in a DeviceClass") {
    const std::string bad =
        "kind: DeviceClass\nmetadata: {name: a100-mig}\nspec:\n  selectors:\n"
        "  - cel: {expression: 'device.attributes[\"gpu.nvidia.com\"].type.matches(\"^m\")'}\n";
    CHECK_THAT(
        ErrorOf(dir, bad),
        Catch::StartsWith(file + ": document 1: spec.selectors[0].cel.expression (line 5): "
                                 "selector 'device.attributes[\"gpu.nvidia.com\"].type.matches("
                                 "\"^m\")': unsupported construct 'matches' at column 42"));
  }
  SECTION("a template or a class defined twice") {
    CHECK(ErrorOf(dir, ExactlyTemplate("mig-1g", "mig.nvidia.com", "1g.5gb") + "---\n" +
                           ExactlyTemplate("mig-1g", "mig.nvidia.com", "2g.10gb")) ==
          file +
              ": document 2 (line 14): ResourceClaimTemplate 'mig-1g' is defined twice in "
              "namespace 'default'");
    CHECK(ErrorOf(dir, kDeviceClass + "---\n" + kDeviceClass) ==
          file +
              ": document 2 (line 8): DeviceClass 'a100-mig' is defined twice (in the scenario's "
              "device_classes or the manifests)");
  }
  SECTION("an unknown apiVersion, admin access, no devices") {
    std::string alpha = kDeviceClass;
    alpha.replace(alpha.find("/v1"), 3, "/v1alpha3");
    CHECK(ErrorOf(dir, alpha) == file +
                                     ": document 1: apiVersion (line 1): unknown apiVersion "
                                     "'resource.k8s.io/v1alpha3' (valid: resource.k8s.io/v1, "
                                     "resource.k8s.io/v1beta2, resource.k8s.io/v1beta1)");
    std::string admin = ExactlyTemplate("mig-1g", "mig.nvidia.com", "1g.5gb");
    admin.insert(admin.find("          selectors"), "          adminAccess: true\n");
    CHECK(ErrorOf(dir, admin) == file +
                                     ": document 1: spec.spec.devices.requests[0].exactly."
                                     "adminAccess (line 11): admin access (to devices allocated "
                                     "to other claims, for monitoring) is not modelled");
    CHECK(ErrorOf(dir, "kind: ResourceClaimTemplate\nmetadata: {name: t}\nspec: {spec: {}}\n") ==
          file + ": document 1: spec.spec (line 3): missing required field 'devices'");
  }
}

TEST_CASE("DRA fields and kinds migsim does not model are warnings with their paths",
          "[k8s][dra]") {
  std::string tmpl = ExactlyTemplate("mig-1g", "mig.nvidia.com", "1g.5gb");
  tmpl.insert(tmpl.find("          selectors"),
              "          tolerations: [{key: k, operator: Exists}]\n");
  tmpl +=
      "      constraints: [{matchAttribute: gpu.nvidia.com/parentIndex}]\n"
      "      config: [{opaque: {driver: gpu.nvidia.com, parameters: {}}}]\n";
  const std::string device_class =
      kDeviceClass +
      "  config: [{opaque: {driver: gpu.nvidia.com, parameters: {}}}]\n"
      "  extendedResourceName: example.com/mig\n";
  CHECK(WarningsOf(device_class + "---\n" + tmpl) ==
        std::vector<std::string>{
            "k8s/a.yaml: document 1: spec.config (line 7): driver configuration (time-slicing, "
            "MPS, ...) is not modelled: each device is allocated to one claim, unshared",
            "k8s/a.yaml: document 1: spec.extendedResourceName (line 8): extended resources "
            "backed by DRA (KEP-5004) are not modelled: pods asking for this resource do not get "
            "the class's devices",
            "k8s/a.yaml: document 2: spec.spec.devices.constraints (line 23): constraints "
            "(matchAttribute) are not modelled: the claim's devices are picked without them",
            "k8s/a.yaml: document 2: spec.spec.devices.config (line 24): driver configuration "
            "(time-slicing, MPS, ...) is not modelled: each device is allocated to one claim, "
            "unshared",
            "k8s/a.yaml: document 2: spec.spec.devices.requests[0].exactly.tolerations (line "
            "20): device taints are not modelled: no device has one to tolerate"});
}

TEST_CASE("seed-scenario golden: DRA manifests give dra-dynamic-mig.json's figures",
          "[k8s][io][dra][golden]") {
  testing::ScenarioRun json, manifests;
  testing::RunScenarioFile("dra-dynamic-mig", json);
  testing::RunScenarioFile("manifests-dra", manifests);
  const RunMetrics& a = testing::Variant(json, "dra-dynamic-mig").metrics;
  const RunMetrics& b = testing::Variant(manifests, "dra-dynamic-mig").metrics;
  CHECK(a.pods.submitted == b.pods.submitted);
  CHECK(a.pods.completed == b.pods.completed);
  CHECK(a.makespan_s == b.makespan_s);
  CHECK(a.queueing.mean_s == b.queueing.mean_s);
  CHECK(a.queueing.p95_s == b.queueing.p95_s);
  CHECK(a.queueing.max_s == b.queueing.max_s);
  CHECK(a.gpu_allocation_ratio == b.gpu_allocation_ratio);
  CHECK(a.jobs.completion.mean_s == b.jobs.completion.mean_s);
  CHECK(a.mig.fragmentation == b.mig.fragmentation);
  CHECK(a.mig.instances_created == b.mig.instances_created);
  CHECK(a.mig.creation_s == b.mig.creation_s);
  CHECK(a.mig.reconfiguration_windows == b.mig.reconfiguration_windows);
}

}  // namespace migsim

namespace migsim {
namespace {

// A ResourceClaim `name` (namespace default) of one whole GPU, with `config` (indented for
// spec.devices, 4 spaces).
std::string SharedClaim(const std::string& name, const std::string& config = "") {
  return "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: " + name +
         "}\nspec:\n  devices:\n    requests:\n    - name: gpu\n"
         "      exactly: {deviceClassName: gpu.nvidia.com}\n" +
         config;
}

const std::string kMpsConfig =
    "    config:\n    - requests: [gpu]\n      opaque:\n        driver: gpu.nvidia.com\n"
    "        parameters:\n          apiVersion: resource.nvidia.com/v1beta1\n"
    "          kind: GpuConfig\n          sharing:\n            strategy: MPS\n"
    "            mpsConfig: {defaultActiveThreadPercentage: 50}\n";

const std::string kClaimByName =
    "      resourceClaims:\n      - name: gpu\n        resourceClaimName: shared-gpu\n";

// The error of a claim with kMpsConfig, `from` replaced by `to`, that a Deployment names.
std::string ConfigError(const test::ScratchDir& dir, const std::string& from,
                        const std::string& to) {
  std::string config = kMpsConfig;
  config.replace(config.find(from), from.size(), to);
  return ErrorOf(dir, SharedClaim("shared-gpu", config) + "---\n" + Deployment(kClaimByName));
}

}  // namespace

TEST_CASE("a ResourceClaim and NVIDIA's sharing config become a shared claim the pods name",
          "[k8s][io][dra]") {
  test::ScratchDir dir("dra");
  const Scenario s = First(LoadManifests(dir, SharedClaim("shared-gpu", kMpsConfig) + "---\n" +
                                                  Deployment(kClaimByName, "[{name: gpu}]")));
  REQUIRE(s.shared_claims.size() == 1);
  CHECK(s.shared_claims[0].claim.name == "default/shared-gpu");
  CHECK(s.shared_claims[0].sharing.strategy == dra::SharingStrategy::kMps);
  CHECK(s.shared_claims[0].sharing.active_thread_percentage == 50);
  REQUIRE(s.templates.size() == 1);
  CHECK(s.templates[0].resource_claims.empty());
  CHECK(s.templates[0].shared_claims == std::vector<dra::SharedClaimId>{dra::SharedClaimId(0)});
}

TEST_CASE("a Deployment's replicas naming one ResourceClaim run on one device under MPS",
          "[k8s][io][dra]") {
  test::ScratchDir dir("dra");
  const Scenario s = First(LoadManifests(
      dir, SharedClaim("shared-gpu", kMpsConfig) + "---\n" + Deployment(kClaimByName)));
  FirstFitPolicy policy;
  const std::unique_ptr<Engine> engine = test::RunEngine(s, policy);
  REQUIRE(engine->pods().size() == 2);
  const Pod& a = engine->pods()[0];
  const Pod& b = engine->pods()[1];
  CHECK(a.phase == PodPhase::kRunning);
  CHECK(b.phase == PodPhase::kRunning);
  CHECK(b.node == a.node);
  CHECK(engine->DeviceName(a) == "gpu0/shared");
  CHECK(engine->DeviceName(b) == "gpu0/shared");
}

TEST_CASE("bad ResourceClaims and references to them are reported at their YAML paths",
          "[k8s][io][dra]") {
  test::ScratchDir dir("dra");
  const std::string file = dir.Path("k8s.yaml");
  const std::string pod = "---\n" + Deployment(kClaimByName);
  SECTION("an unknown claim lists the namespace's") {
    CHECK(ErrorOf(dir, SharedClaim("other-gpu") + pod) ==
          file +
              ": document 2: spec.template.spec.resourceClaims[0].resourceClaimName (line 19): "
              "unknown ResourceClaim 'shared-gpu' (valid: other-gpu) in namespace 'default'");
  }
  SECTION("another driver's configuration") {
    CHECK(ConfigError(dir, "driver: gpu.nvidia.com", "driver: example.com") ==
          file +
              ": document 1: spec.devices.config[0].opaque.driver (line 12): configuration for "
              "driver 'example.com' is not modelled: migsim reads NVIDIA's DRA driver's "
              "(gpu.nvidia.com)");
  }
  SECTION("another kind of parameters") {
    CHECK(ConfigError(dir, "kind: GpuConfig", "kind: VfioDeviceConfig") ==
          file +
              ": document 1: spec.devices.config[0].opaque.parameters.kind (line 15): unknown "
              "kind of parameters 'VfioDeviceConfig' (valid: GpuConfig, MigDeviceConfig)");
  }
  SECTION("an MPS percentage out of range, at its YAML path") {
    CHECK(ConfigError(dir, "Percentage: 50", "Percentage: 150")
              .starts_with(file + ": document 1: spec.devices.config[0].opaque.parameters."
                                  "sharing.mpsConfig.defaultActiveThreadPercentage (line 18): "));
  }
  SECTION("a claim defined twice") {
    CHECK(ErrorOf(dir, SharedClaim("shared-gpu") + "---\n" + SharedClaim("shared-gpu") + pod) ==
          file +
              ": document 2 (line 10): ResourceClaim 'shared-gpu' is defined twice in "
              "namespace 'default'");
  }
  SECTION("a template and a claim in one entry") {
    CHECK(ErrorOf(dir, Deployment(kClaimByName + "        resourceClaimTemplateName: t\n"))
              .ends_with("give either resourceClaimName or resourceClaimTemplateName, not both"));
  }
}

}  // namespace migsim
