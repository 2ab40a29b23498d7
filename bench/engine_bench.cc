// Engine benchmarks: a whole run of the synthetic MIG scenario, and the event queue.
#include <benchmark/benchmark.h>

#include "bench/synthetic_scenario.h"
#include "sim/core/event_queue.h"
#include "sim/study/run.h"

namespace migsim {
namespace {

void BM_RunSyntheticMig(benchmark::State& state) {
  const int nodes = static_cast<int>(state.range(0));
  const int pods = static_cast<int>(state.range(1));
  Scenario scenario = SyntheticMigScenario(nodes, pods, 1);
  scenario.policy.name = state.range(2) == 0 ? "first-fit" : "best-fit";
  int64_t completed = 0;
  for (auto _ : state) {
    VariantResult r = RunVariant("bench", scenario);
    completed = r.metrics.pods.completed;
    benchmark::DoNotOptimize(r);
  }
  state.counters["pods_completed"] = static_cast<double>(completed);
  state.SetItemsProcessed(state.iterations() * pods);
}
BENCHMARK(BM_RunSyntheticMig)
    ->ArgNames({"nodes", "pods", "best_fit"})
    ->Args({10, 10'000, 0})
    ->Args({100, 100'000, 0})
    ->Args({100, 100'000, 1})
    ->Unit(benchmark::kMillisecond);

// The MIG scenario grown with the cluster (issue 15): 1,000 nodes and 1,000,000 pods,
// first-fit: the engine's run of bench/scenarios/mig-1m.json, without loading or metrics.
// Its events per second (each pushed and popped once) compare with BM_EventQueuePushPop's
// items per second, the bare heap on this machine.
void BM_RunSyntheticMigAtScale(benchmark::State& state) {
  const int pods = static_cast<int>(state.range(1));
  Scenario scenario = SyntheticMigScenarioAtScale(static_cast<int>(state.range(0)), pods, 1);
  scenario.policy.name = "first-fit";
  uint64_t events = 0;
  for (auto _ : state) {
    const std::unique_ptr<Policy> policy = MakeScenarioPolicy(scenario);
    Engine engine(MakeEngineInputs(scenario), *policy, EngineConfig{.seed = scenario.seed});
    engine.Run();
    events += engine.events_queued();
    benchmark::DoNotOptimize(engine.end_time());
  }
  state.counters["events"] = static_cast<double>(events) / static_cast<double>(state.iterations());
  state.counters["events_per_s"] =
      benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
  state.SetItemsProcessed(state.iterations() * pods);
}
BENCHMARK(BM_RunSyntheticMigAtScale)
    ->ArgNames({"nodes", "pods"})
    ->Args({1000, 1'000'000})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

// Three priority classes with preemption against the same pods without priorities
// (issue 12: within 2x).
void BM_RunSyntheticPriorities(benchmark::State& state) {
  const int pods = static_cast<int>(state.range(1));
  Scenario scenario =
      SyntheticPriorityScenario(static_cast<int>(state.range(0)), pods, state.range(2) != 0, 1);
  scenario.policy.name = "first-fit";
  int64_t preemptions = 0, completed = 0;
  for (auto _ : state) {
    VariantResult r = RunVariant("bench", scenario);
    preemptions = r.metrics.preemptions;
    completed = r.metrics.pods.completed;
    benchmark::DoNotOptimize(r);
  }
  state.counters["preemptions"] = static_cast<double>(preemptions);
  state.counters["pods_completed"] = static_cast<double>(completed);
  state.SetItemsProcessed(state.iterations() * pods);
}
BENCHMARK(BM_RunSyntheticPriorities)
    ->ArgNames({"nodes", "pods", "priorities"})
    ->Args({100, 100'000, 0})
    ->Args({100, 100'000, 1})
    ->Args({1000, 1'000'000, 0})
    ->Args({1000, 1'000'000, 1})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

void BM_RunSyntheticTimeSliced(benchmark::State& state) {
  const int pods = static_cast<int>(state.range(1));
  Scenario scenario = SyntheticTimeSlicedScenario(static_cast<int>(state.range(0)), pods, 1);
  scenario.policy.name = "first-fit";
  for (auto _ : state) {
    VariantResult r = RunVariant("bench", scenario);
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations() * pods);
}
BENCHMARK(BM_RunSyntheticTimeSliced)
    ->ArgNames({"nodes", "pods"})
    ->Args({100, 100'000})
    ->Unit(benchmark::kMillisecond);

void BM_EventQueuePushPop(benchmark::State& state) {
  const int64_t n = state.range(0);
  EventQueue<uint64_t> q;
  q.Reserve(static_cast<size_t>(n));
  uint64_t x = 88172645463325252ull;
  for (auto _ : state) {
    for (int64_t i = 0; i < n; ++i) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;  // xorshift: cheap, fixed times
      q.Push(SimTime::Micros(static_cast<int64_t>(x % 1'000'000'000)), x);
    }
    while (!q.empty()) benchmark::DoNotOptimize(q.Pop());
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_EventQueuePushPop)->Range(1 << 10, 1 << 20);

}  // namespace
}  // namespace migsim

BENCHMARK_MAIN();
