// The HorizontalPodAutoscaler's decisions on an external load (workloads/hpa.h), against
// Kubernetes' documented algorithm and default behaviour.
#include <catch2/catch.hpp>

#include "workloads/hpa.h"

namespace migsim {
namespace {

HpaSpec Hpa(std::vector<LoadPoint> points, int min = 1, int max = 100) {
  HpaSpec hpa;
  hpa.load = LoadSeries::Points(std::move(points));
  hpa.target_per_replica = 10;
  hpa.min_replicas = min;
  hpa.max_replicas = max;
  return hpa;
}

}  // namespace

TEST_CASE("the HPA sets ceil(load / target) replicas at each 15 s sync, within the tolerance "
          "it keeps the count",
          "[workloads][hpa]") {
  // 95 requests/s for 10 per replica: 10 replicas at the first sync (15 s); at 104 the
  // ratio 1.04 is within 0.1, so it stays.
  const auto events = HpaScaleEvents(Hpa({{SimTime::Zero(), 95}, {SimTime::Seconds(20), 104},
                                          {SimTime::Seconds(1000), 104}}),
                                     10, SimTime::Zero(), SimTime::Seconds(100));
  CHECK(events.empty());
  const auto up = HpaScaleEvents(Hpa({{SimTime::Zero(), 95}}), 1, SimTime::Zero(),
                                 SimTime::Seconds(60));
  // Scale-up is limited to max(100 %, 4 pods) per 15 s: 1 -> 5 -> 10.
  REQUIRE(up.size() == 2);
  CHECK((up[0].at.seconds() == 15 && up[0].replicas == 5));
  CHECK((up[1].at.seconds() == 30 && up[1].replicas == 10));
}

TEST_CASE("the HPA scales down only once the 300 s stabilization window has seen no higher "
          "recommendation",
          "[workloads][hpa]") {
  // 100 requests/s until 600 s, then 20: the recommendation drops to 2 at the 615 s sync,
  // but the window keeps the highest recommendation strictly after now - 300 s: the 10 of
  // the 600 s sync drops out at the 900 s sync.
  const auto events = HpaScaleEvents(
      Hpa({{SimTime::Zero(), 100}, {SimTime::Seconds(600), 100}, {SimTime::Seconds(600.001), 20}}),
      10, SimTime::Zero(), SimTime::Seconds(2000));
  REQUIRE(events.size() == 1);
  CHECK(events[0].at.seconds() == 900);
  CHECK(events[0].replicas == 2);
}

TEST_CASE("the HPA keeps the replicas within min and max and brings a count outside them back",
          "[workloads][hpa]") {
  const auto events = HpaScaleEvents(Hpa({{SimTime::Zero(), 1000}}, 2, 6), 1, SimTime::Zero(),
                                     SimTime::Seconds(100));
  // 1 replica is raised to min at the first sync; then 2 -> 6 (max).
  REQUIRE(events.size() == 2);
  CHECK(events[0].replicas == 2);
  CHECK(events[1].replicas == 6);
  CHECK(HpaScaleEvents(Hpa({{SimTime::Zero(), 1000}}, 2, 6), 0, SimTime::Zero(),
                       SimTime::Seconds(100))
            .empty());  // a Deployment at 0 replicas: the HPA is off
}

TEST_CASE("the HPA scales a load of 3e9 per replica's target up to max replicas, not past int",
          "[workloads][hpa]") {
  // ceil(3e9 / 1) is past 2^31: the Deployment still doubles each 15 s to max.
  HpaSpec hpa = Hpa({{SimTime::Zero(), 3e9}}, 1, 100);
  hpa.target_per_replica = 1;
  const auto events = HpaScaleEvents(hpa, 1, SimTime::Zero(), SimTime::Seconds(300));
  REQUIRE(events.size() == 6);  // 5, 10, 20, 40, 80, 100
  CHECK(events[0].replicas == 5);
  CHECK(events.back().replicas == 100);
  hpa.max_replicas = 2'000'000'000;  // the cap itself near the top of int
  const auto big = HpaScaleEvents(hpa, 1, SimTime::Zero(), SimTime::Seconds(3600));
  REQUIRE_FALSE(big.empty());
  CHECK(big.back().replicas == 2'000'000'000);
}

}  // namespace migsim
