#include "sim/io/telemetry/pod_observations.h"

#include <catch2/catch.hpp>

#include "tests/sim/io/telemetry/example_export.h"

namespace migsim::telemetry {
namespace {

const PodObservation& Find(const PodObservations& all, const std::string& pod) {
  for (const PodObservation& p : all.pods) {
    if (p.key.pod == pod) return p;
  }
  FAIL("no pod " << pod);
  throw;
}

// A range-query series of `metric` with `labels` (JSON members) and samples [[t, "v"], ...].
Series Make(const std::string& metric, const std::string& labels, const std::string& values) {
  Result<std::vector<Series>> r = ParsePrometheusResponse(
      std::string(R"({"status":"success","data":{"resultType":"matrix","result":[)") +
          R"({"metric":{"__name__":")" + metric + "\"" + (labels.empty() ? "" : "," + labels) +
          R"(},"values":)" + values + "}]}}",
      "t.json");
  REQUIRE(r.ok());
  return r.value()[0];
}

std::string JoinError(const std::vector<Series>& series) {
  Result<PodObservations> r = JoinPodObservations(series);
  REQUIRE_FALSE(r.ok());
  return r.status().ToString();
}

TEST_CASE("the example export joins into the pods' times, owners, duty cycles and memory",
          "[io][telemetry]") {
  const PodObservations all = LoadExampleExport();
  REQUIRE(all.pods.size() == 12);
  CHECK(all.pods[0].key == PodKey{"ml", "bert-eval-2lmfd"});  // sorted by (namespace, pod)

  const PodObservation& train = Find(all, "resnet50-train-4xk2p");
  CHECK(train.created == 1764201720);
  CHECK(train.started == 1764201724);
  CHECK(train.finished == 1764203524);
  CHECK(train.run_seconds == 1800);
  REQUIRE(train.workload.has_value());
  CHECK(train.owner->kind == "Job");
  CHECK(train.workload->name == "resnet50-train");
  CHECK(train.terminated_reason == "Completed");
  CHECK(train.duty_cycle.value() == Approx(0.686).epsilon(1e-12));
  CHECK(train.duty_cycle_metric == "DCGM_FI_PROF_GR_ENGINE_ACTIVE");
  CHECK(train.peak_memory_mib == 17850);
  CHECK(train.mig_profile == "3g.20gb");
  CHECK(train.gpu_model == "NVIDIA A100-SXM4-40GB");
  CHECK(train.hostname == "gpu-a100-40-0");

  const PodObservation& oom = Find(all, "bert-eval-fj6xq");
  CHECK(oom.run_seconds == 420);
  CHECK(oom.terminated_reason == "OOMKilled");
  CHECK(oom.duty_cycle.value() == Approx(639.0 / 7 / 100).epsilon(1e-12));  // GPU_UTIL %
  CHECK(oom.duty_cycle_metric == "DCGM_FI_DEV_GPU_UTIL");
  CHECK(oom.peak_memory_mib == 22912);
  CHECK(oom.mig_profile.empty());  // a whole L4
  CHECK(oom.gpu_model == "NVIDIA L4");

  const PodObservation& no_gpu = Find(all, "bert-eval-rw9zc");
  CHECK(no_gpu.run_seconds == 720);
  CHECK_FALSE(no_gpu.duty_cycle.has_value());
  CHECK_FALSE(no_gpu.peak_memory_mib.has_value());
  CHECK(no_gpu.gpu_model.empty());

  const PodObservation& serve = Find(all, "llm-serve-7d9f8b6c5d-zq4hn");
  CHECK(serve.created == 1764205200);
  CHECK_FALSE(serve.finished.has_value());
  CHECK_FALSE(serve.run_seconds.has_value());
  CHECK(serve.owner->kind == "ReplicaSet");
  CHECK(serve.owner->name == "llm-serve-7d9f8b6c5d");
  CHECK(serve.workload->kind == "Deployment");
  CHECK(serve.workload->name == "llm-serve");
  CHECK(serve.terminated_reason.empty());
  CHECK(serve.duty_cycle.value() == Approx(0.38).epsilon(1e-12));  // its NaN step skipped
  CHECK(serve.peak_memory_mib == 9000);
  CHECK(serve.mig_profile == "1g.10gb");

  double resnet_run = 0;
  for (const PodObservation& p : all.pods) {
    if (p.workload && p.workload->name == "resnet50-train") resnet_run += *p.run_seconds;
  }
  CHECK(resnet_run == 1800 + 1920 + 1740 + 2100 + 1860);
}

TEST_CASE("the example export's report counts what each pod lacks", "[io][telemetry]") {
  const ObservationReport r = LoadExampleExport().report;
  CHECK(r.pods == 12);
  CHECK(r.without_created == 0);
  CHECK(r.without_started == 0);
  CHECK(r.without_finished == 3);  // the Deployment's pods still run
  CHECK(r.without_run_time == 3);
  CHECK(r.without_owner == 0);
  CHECK(r.without_terminated_reason == 3);
  CHECK(r.without_gpu == 1);
  CHECK(r.without_duty_cycle == 1);
  CHECK(r.without_memory == 1);
  CHECK(r.duty_cycle_from_gpu_util == 3);
  CHECK(r.replica_sets_without_deployment == 0);
  CHECK(r.gpu_series_without_pod == 2);  // an idle MIG instance in two metrics
  CHECK(r.unnamed_series == 0);
  CHECK(r.other_series == 0);
}

TEST_CASE("pods seen by one source only are kept with what it knows", "[io][telemetry]") {
  const std::vector<Series> series = {
      Make("kube_pod_start_time", R"("namespace":"a","pod":"p")", R"([[10,"100"]])"),
      Make(
          "kube_pod_owner",
          R"("namespace":"a","pod":"q","owner_kind":"ReplicaSet","owner_name":"w-5f","owner_is_controller":"true")",
          R"([[10,"1"]])"),
      Make(
          "kube_pod_owner",
          R"("namespace":"a","pod":"r","owner_kind":"<none>","owner_name":"<none>","owner_is_controller":"<none>")",
          R"([[10,"1"]])"),
      Make("DCGM_FI_DEV_FB_USED",
           R"("exported_namespace":"a","exported_pod":"s","modelName":"NVIDIA H100 80GB HBM3")",
           R"([[10,"512"],[20,"2048"],[30,"NaN"]])"),
      Make("DCGM_FI_DEV_GPU_UTIL", R"("modelName":"NVIDIA H100 80GB HBM3")", R"([[10,"5"]])"),
      Make("unnamed", "", R"([[10,"5"]])"),
      Make("node_cpu_seconds_total", "", R"([[10,"5"]])")};
  Series unnamed = series[5];
  unnamed.metric.clear();
  std::vector<Series> all = series;
  all[5] = unnamed;
  Result<PodObservations> r = JoinPodObservations(all);
  REQUIRE(r.ok());
  REQUIRE(r.value().pods.size() == 4);
  const PodObservation& s = r.value().pods[3];
  CHECK(s.key == PodKey{"a", "s"});
  CHECK(s.peak_memory_mib == 2048);
  CHECK(s.gpu_model == "NVIDIA H100 80GB HBM3");
  CHECK(r.value().pods[2].ownerless);
  CHECK_FALSE(r.value().pods[2].owner.has_value());
  const ObservationReport& report = r.value().report;
  CHECK(report.pods == 4);
  CHECK(report.without_created == 4);
  CHECK(report.without_started == 3);
  CHECK(report.without_owner == 2);  // p and s; r has none by kube-state-metrics' word
  CHECK(report.without_gpu == 3);
  CHECK(report.without_duty_cycle == 4);
  CHECK(report.without_memory == 3);
  CHECK(report.replica_sets_without_deployment == 1);
  CHECK(report.gpu_series_without_pod == 1);
  CHECK(report.unnamed_series == 1);
  CHECK(report.other_series == 1);
}

TEST_CASE("the engine-active ratio is preferred to GPU utilisation", "[io][telemetry]") {
  const std::string pod = R"("namespace":"a","pod":"p")";
  Result<PodObservations> r = JoinPodObservations(
      {Make("DCGM_FI_DEV_GPU_UTIL", pod, R"([[10,"90"]])"),
       Make("DCGM_FI_PROF_GR_ENGINE_ACTIVE", pod, R"([[10,"0.25"],[20,"0.75"],[30,"NaN"]])")});
  REQUIRE(r.ok());
  CHECK(r.value().pods[0].duty_cycle == 0.5);
  CHECK(r.value().report.duty_cycle_from_gpu_util == 0);
}

TEST_CASE("a failed container's reason wins over another's Completed", "[io][telemetry]") {
  const std::string pod = R"("namespace":"a","pod":"p",)";
  Result<PodObservations> r = JoinPodObservations(
      {Make("kube_pod_container_status_terminated_reason",
            pod + R"("container":"x","reason":"Error")", R"([[10,"1"],[20,"0"]])"),
       Make("kube_pod_container_status_terminated_reason",
            pod + R"("container":"y","reason":"OOMKilled")", R"([[20,"1"]])"),
       Make("kube_pod_container_status_terminated_reason",
            pod + R"("container":"z","reason":"Completed")", R"([[20,"1"]])")});
  REQUIRE(r.ok());
  CHECK(r.value().pods[0].terminated_reason == "OOMKilled");
}

TEST_CASE("a pod's latest timestamp sample wins", "[io][telemetry]") {
  const std::string pod = R"("namespace":"a","pod":"p")";
  Result<PodObservations> r = JoinPodObservations(
      {Make("kube_pod_created", pod + R"(,"uid":"2")", R"([[30,"25"],[40,"NaN"]])"),
       Make("kube_pod_created", pod + R"(,"uid":"1")", R"([[10,"5"],[20,"5"]])")});
  REQUIRE(r.ok());
  CHECK(r.value().pods[0].created == 25);
}

TEST_CASE("bad telemetry values are errors at their series or sample", "[io][telemetry]") {
  const std::string pod = R"("namespace":"a","pod":"p")";
  CHECK(JoinError({Make("kube_pod_created", R"("namespace":"a")", R"([[10,"5"]])")}) ==
        "t.json:/data/result/0/metric: kube_pod_created series lacks the label 'pod'");
  CHECK(JoinError({Make("kube_pod_start_time", pod, R"([[10,"5"],[20,"+Inf"]])")}) ==
        "t.json:/data/result/0/values/1/1: kube_pod_start_time must be a Unix time in "
        "seconds, got inf");
  CHECK(JoinError({Make("kube_pod_start_time", pod, R"([[10,"50"]])"),
                   Make("kube_pod_completion_time", pod, R"([[10,"40"],[20,"40"]])")}) ==
        "t.json:/data/result/0/values/1/1: the pod completed before it started (start time "
        "50)");
  CHECK(JoinError({Make("DCGM_FI_PROF_GR_ENGINE_ACTIVE", pod, R"([[10,"0.5"],[20,"1.5"]])")}) ==
        "t.json:/data/result/0/values/1/1: DCGM_FI_PROF_GR_ENGINE_ACTIVE must be within [0, 1], "
        "got 1.5");
  CHECK(JoinError({Make("DCGM_FI_DEV_GPU_UTIL", pod, R"([[10,"101"]])")}) ==
        "t.json:/data/result/0/values/0/1: DCGM_FI_DEV_GPU_UTIL must be within [0, 100], got 101");
  CHECK(JoinError({Make("DCGM_FI_DEV_FB_USED", pod, R"([[10,"-1"]])")}) ==
        "t.json:/data/result/0/values/0/1: DCGM_FI_DEV_FB_USED must be within [0, "
        "1000000000000], got -1");
  CHECK(JoinError({Make("kube_replicaset_owner", R"("namespace":"a")", R"([[10,"1"]])")}) ==
        "t.json:/data/result/0/metric: kube_replicaset_owner series lacks the label "
        "'namespace' or 'replicaset'");
}

}  // namespace
}  // namespace migsim::telemetry
