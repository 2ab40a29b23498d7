#include "sim/engine/job_class.h"

#include <catch2/catch.hpp>

#include "sim/cluster/gpu_model.h"

namespace migsim {
namespace {

JobClass WholeGpu108s() {
  JobClass jc;
  jc.run_time = {{"gpu", SimTime::Seconds(98)}};
  return jc;
}

TEST_CASE("a 7g instance runs at the whole GPU's speed less the SMs MIG mode takes",
          "[engine][job_class]") {
  const GpuModel* a100 = FindGpuModel("A100-SXM4-40GB");
  // 98 s on a whole A100 (108 SMs) is 108 s on a 7g.40gb (98 SMs).
  CHECK(RunTimeOnDevice(WholeGpu108s(), a100, "7g.40gb") == SimTime::Seconds(108));
  CHECK(RunTimeOnDevice(WholeGpu108s(), a100, "gpu") == SimTime::Seconds(98));
}

TEST_CASE("smaller profiles follow the class's MIG curve, or have no run time without one",
          "[engine][job_class]") {
  const GpuModel* a100 = FindGpuModel("A100-SXM4-40GB");
  JobClass jc = WholeGpu108s();
  CHECK_FALSE(RunTimeOnDevice(jc, a100, "1g.5gb").has_value());
  jc.mig_curve = MigCurve{1.0, 0.0};  // speed proportional to compute slices
  CHECK(RunTimeOnDevice(jc, a100, "1g.5gb") == SimTime::Seconds(108 * 7));
  CHECK(RunTimeOnDevice(jc, a100, "3g.20gb")->seconds() == Approx(108 * 7 / 3.0));
  jc.run_time.push_back({"1g.5gb", SimTime::Seconds(500)});  // a given time wins
  CHECK(RunTimeOnDevice(jc, a100, "1g.5gb") == SimTime::Seconds(500));
}

TEST_CASE("a run time given per GPU model wins over the plain kind", "[engine][job_class]") {
  JobClass jc;
  jc.run_time = {{"gpu", SimTime::Seconds(10)}, {"T4/gpu", SimTime::Seconds(30)}};
  jc.default_run_time = SimTime::Seconds(99);
  CHECK(RunTimeOnDevice(jc, FindGpuModel("T4"), "gpu") == SimTime::Seconds(30));
  CHECK(RunTimeOnDevice(jc, FindGpuModel("A10G"), "gpu") == SimTime::Seconds(10));
  CHECK(RunTimeOnDevice(jc, nullptr, "cpu") == SimTime::Seconds(99));
}

}  // namespace
}  // namespace migsim
