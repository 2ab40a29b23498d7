// Shared ResourceClaims in scenarios: the top-level `resource_claims` and the templates'
// `resource_claim_name`, read, and refused with their pointers.

#include <catch2/catch.hpp>
#include <string>

#include "tests/support/scenario_text.h"

namespace migsim {
namespace {

const std::string kRequests =
    R"("requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu.nvidia.com"}}])";

// One DRA p4d.24xlarge, the scenario's `claims` and a Pod workload whose template's
// resource_claims are `refs`; `extra` goes into the template.
std::string Doc(const std::string& claims, const std::string& refs, const std::string& extra = "") {
  return R"({"name": "t", "description": "d",
    "cluster": {"nodes": {"p4d": {"type": "p4d.24xlarge", "dra": {}}}},
    "resource_claims": )" +
         claims + R"(,
    "job_classes": {"c": {"run_s": 10}},
    "workloads": {"w": {"kind": "Pod", "template": {"job_class": "c", )" +
         extra + R"("resource_claims": )" + refs + "}}}}";
}

std::string Claim(const std::string& sharing) {
  return R"({"a": {)" + kRequests + (sharing.empty() ? "" : ", \"sharing\": " + sharing) + "}}";
}

const std::string kRefA = R"([{"name": "gpu", "resource_claim_name": "a"}])";

}  // namespace

TEST_CASE("shared claims and their sharing are read with the driver's field names", "[io][dra]") {
  const std::string claims =
      R"({"ts": {)" + kRequests +
      R"(, "sharing": {"strategy": "TimeSlicing", "timeSlicingConfig": {"interval": "Long"}}},
          "mps": {)" +
      kRequests +
      R"(, "sharing": {"strategy": "MPS", "mpsConfig": {"defaultActiveThreadPercentage": 40,
                                                       "defaultPinnedDeviceMemoryLimit": "10Gi"}}},
          "plain": {)" +
      kRequests + "}}";
  const Scenario s = test::LoadFirstVariant(Doc(claims,
                                                R"([{"name": "x", "resource_claim_name": "mps"},
                  {"name": "own", )" + kRequests + R"(},
                  {"name": "y", "resource_claim_name": "plain"}])"));
  REQUIRE(s.shared_claims.size() == 3);  // in file order
  CHECK(s.shared_claims[0].claim.name == "ts");
  CHECK(s.shared_claims[0].sharing.interval == dra::TimeSliceInterval::kLong);
  CHECK(s.shared_claims[0].claim.requests.front().alternatives.front().device_class ==
        "gpu.nvidia.com");
  const dra::SharedClaim& mps = s.shared_claims[1];
  CHECK(mps.sharing.strategy == dra::SharingStrategy::kMps);
  CHECK(mps.sharing.active_thread_percentage == 40);
  CHECK(mps.sharing.pinned_memory_limit_mib == 10240);
  // No sharing: time-slicing, the driver's default for a shared claim.
  CHECK(s.shared_claims[2].sharing == dra::DeviceSharing{});
  const PodTemplate& t = s.templates.front();
  CHECK(t.shared_claims ==
        std::vector<dra::SharedClaimId>{dra::SharedClaimId(1), dra::SharedClaimId(2)});
  REQUIRE(t.resource_claims.size() == 1);
  CHECK(t.resource_claims.front().name == "own");
}

TEST_CASE("a claim only one pod template uses may still say how it is shared", "[io][dra]") {
  const Scenario s = test::LoadFirstVariant(Doc(Claim(R"({"strategy": "MPS"})"), kRefA));
  REQUIRE(s.shared_claims.size() == 1);
  CHECK(s.shared_claims[0].sharing.active_thread_percentage == 100);
}

TEST_CASE("bad shared claims are refused at their JSON pointer", "[io][dra]") {
  SECTION("an unknown claim name lists the valid ones") {
    CHECK(test::LoadError(Doc(Claim(""), R"([{"name": "gpu", "resource_claim_name": "b"}])")) ==
          "t.json:/workloads/w/template/resource_claims/0/resource_claim_name: unknown shared "
          "ResourceClaim 'b' (valid: a) (the scenario's resource_claims)");
  }
  SECTION("an MPS percentage outside 1..100") {
    for (const char* bad : {"0", "101"}) {
      INFO(bad);
      CHECK(
          test::LoadError(
              Doc(Claim(
                      std::string(
                          R"({"strategy": "MPS", "mpsConfig": {"defaultActiveThreadPercentage": )") +
                      bad + "}}"),
                  kRefA))
              .starts_with("t.json:/resource_claims/a/sharing/mpsConfig/"
                           "defaultActiveThreadPercentage: must be "));
    }
  }
  SECTION("an unknown strategy") {
    CHECK(test::LoadError(Doc(Claim(R"({"strategy": "Exclusive"})"), kRefA)) ==
          "t.json:/resource_claims/a/sharing/strategy: strategy must be TimeSlicing or MPS "
          "(got 'Exclusive')");
  }
  SECTION("the other strategy's config") {
    CHECK(test::LoadError(Doc(Claim(R"({"strategy": "TimeSlicing", "mpsConfig": {}})"), kRefA)) ==
          "t.json:/resource_claims/a/sharing/mpsConfig: mpsConfig is for strategy MPS only");
  }
  SECTION("an unknown time-slicing interval") {
    CHECK(test::LoadError(Doc(
              Claim(R"({"strategy": "TimeSlicing", "timeSlicingConfig": {"interval": "Huge"}})"),
              kRefA)) ==
          "t.json:/resource_claims/a/sharing/timeSlicingConfig/interval: interval must be "
          "Default, Short, Medium or Long (got 'Huge')");
  }
  SECTION("a pinned memory limit that is no quantity") {
    CHECK(
        test::LoadError(
            Doc(Claim(
                    R"({"strategy": "MPS", "mpsConfig": {"defaultPinnedDeviceMemoryLimit": "lots"}})"),
                kRefA))
            .starts_with("t.json:/resource_claims/a/sharing/mpsConfig/"
                         "defaultPinnedDeviceMemoryLimit: "));
  }
  SECTION("a claim named twice by one pod") {
    CHECK(test::LoadError(Doc(Claim(""), R"([{"name": "x", "resource_claim_name": "a"},
                                             {"name": "y", "resource_claim_name": "a"}])")) ==
          "t.json:/workloads/w/template/resource_claims/1/resource_claim_name: the pod names "
          "ResourceClaim 'a' twice");
  }
  SECTION("a reference with requests of its own") {
    CHECK(test::LoadError(
              Doc(Claim(""), R"([{"name": "x", "resource_claim_name": "a", )" + kRequests + "}]"))
              .starts_with("t.json:/workloads/w/template/resource_claims/0/requests: "));
  }
  SECTION("a pod bound by nodeName") {
    CHECK(test::LoadError(Doc(Claim(""), kRefA, R"("nodeName": "p4d-0", )")) ==
          "t.json:/workloads/w/template/nodeName: a pod bound by nodeName cannot use a shared "
          "ResourceClaim (the scheduler allocates it and places the pods that use it)");
  }
  SECTION("a claim without requests") {
    CHECK(test::LoadError(Doc(R"({"a": {}})", kRefA)) ==
          "t.json:/resource_claims/a: missing required field 'requests'");
  }
}

}  // namespace migsim
