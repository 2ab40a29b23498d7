#include "sim/policy/mig_share.h"

#include <catch2/catch.hpp>

#include "sim/cluster/mig_config.h"

namespace migsim {
namespace {

const GpuModel& A100() { return *FindGpuModel("A100-SXM4-40GB"); }

std::string ProfileName(int32_t milli) {
  std::optional<int> p = ProfileForShare(A100(), milli);
  return p ? A100().profiles[*p].name : "none";
}

TEST_CASE("an openb share maps to the smallest MIG profile covering its compute and memory",
          "[mig_share]") {
  CHECK(ProfileName(0) == "none");
  CHECK(ProfileName(125) == "1g.5gb");   // 1/7 compute, 1/8 memory
  CHECK(ProfileName(126) == "2g.10gb");  // more than 1/8 of the memory
  CHECK(ProfileName(250) == "2g.10gb");
  CHECK(ProfileName(428) == "3g.20gb");  // 3/7 = 428.6 milli of compute
  CHECK(ProfileName(429) == "4g.20gb");
  CHECK(ProfileName(500) == "4g.20gb");
  CHECK(ProfileName(501) == "7g.40gb");
  CHECK(ProfileName(1000) == "7g.40gb");
}

TEST_CASE("a static layout offers its free GIs, dynamic partitioning any valid placement",
          "[mig_share]") {
  const int one = A100().FindProfile("1g.5gb");
  const int three = A100().FindProfile("3g.20gb");
  MigGpu empty;
  std::vector<MigCandidate> c;
  MigCandidates(A100(), empty, 0, three, true, c);
  REQUIRE(c.size() == 2);  // starts 0 and 4
  CHECK(c[0].create);
  MigGpu balanced;
  const Result<GpuMigSetting> setting = ResolveMigConfig(A100(), "all-balanced");
  for (const MigPlacement& p : setting.value().layout) balanced.gis.push_back({p, false});
  c.clear();
  MigCandidates(A100(), balanced, 3, one, false, c);
  CHECK(c.size() == 2);  // the two free 1g.5gb
  CHECK(c[0].gpu == 3);
  CHECK_FALSE(c[0].create);
  MigGpu taken = WithGi(balanced, c[0], one);
  c.clear();
  MigCandidates(A100(), taken, 0, one, false, c);
  CHECK(c.size() == 1);
  CHECK(MigComputeUsed(A100(), taken) == 1);
}

TEST_CASE("an empty A100 keeps all 19 layouts open, each GI closes some", "[mig_share]") {
  const std::vector<MigLayout> layouts = EnumerateMaximalLayouts(A100(), true);
  MigGpu gpu;
  CHECK(CompatibleLayouts(gpu, layouts) == 19);
  gpu.gis.push_back({{A100().FindProfile("7g.40gb"), 0}, true});
  CHECK(CompatibleLayouts(gpu, layouts) == 1);
  MigGpu three;
  three.gis.push_back({{A100().FindProfile("3g.20gb"), 4}, true});
  CHECK(CompatibleLayouts(three, layouts) == 6);  // the left half is free: 6 ways
}

TEST_CASE("MIG fragmentation counts free slices no typical profile can take", "[mig_share]") {
  const int four = A100().FindProfile("4g.20gb");
  const int seven = A100().FindProfile("7g.40gb");
  const std::vector<TypicalProfile> typical = {{four, 0.5}, {seven, 0.5}};
  MigGpu empty;
  CHECK(MigFragmentation(A100(), empty, true, typical) == 0);  // both fit
  MigGpu with_three;
  with_three.gis.push_back({{A100().FindProfile("3g.20gb"), 0}, true});
  // 4 slices free, but neither a 4g (needs start 0) nor a 7g fits: all 4 are fragment.
  CHECK(MigFragmentation(A100(), with_three, true, typical) == Approx(4.0));
}

}  // namespace
}  // namespace migsim
