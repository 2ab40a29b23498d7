#include "workloads/hpa.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>

namespace migsim {
namespace {

// The default rate policies' period: 15 s, for scale-up (100 % or 4 pods, the larger) and
// scale-down (100 %).
constexpr SimTime kPolicyPeriod = SimTime::Micros(15'000'000);
constexpr int kScaleUpPods = 4;

struct Recommendation {
  SimTime at;
  int replicas = 0;
};

// ceil(load / target), worked out in double and brought within 0 .. max_replicas before it
// is an int: a load of 3e9 per replica's target is past any int (the cast would be
// undefined). Every later step clamps to max_replicas anyway (Kubernetes' normalization
// caps the recommendation at maxReplicas), and capping each recommendation first leaves the
// stabilization's minima and maxima, and so the result, as they were.
int RawRecommendation(const HpaSpec& hpa, int current, double load) {
  const double ratio = load / (hpa.target_per_replica * current);
  if (std::abs(ratio - 1) <= hpa.tolerance) return current;
  const double wanted = std::ceil(load / hpa.target_per_replica - 1e-9);
  if (!(wanted > 0)) return 0;  // no load (or none that is a number)
  return static_cast<int>(std::min(wanted, static_cast<double>(hpa.max_replicas)));
}

// Kubernetes' stabilizeRecommendationWithBehaviors: recommendations strictly newer than
// the window's start count, with the raw one.
int Stabilized(const std::deque<Recommendation>& history, SimTime now, const HpaSpec& hpa,
               int current, int raw) {
  int up = raw, down = raw;
  for (const Recommendation& r : history) {
    if (r.at > now - hpa.scale_up_window) up = std::min(up, r.replicas);
    if (r.at > now - hpa.scale_down_window) down = std::max(down, r.replicas);
  }
  int recommendation = current;
  if (recommendation < up) recommendation = up;
  if (recommendation > down) recommendation = down;
  return recommendation;
}

}  // namespace

std::vector<ScaleEvent> HpaScaleEvents(const HpaSpec& hpa, int replicas, SimTime start,
                                       SimTime end) {
  std::vector<ScaleEvent> events;
  std::deque<Recommendation> history;
  int current = replicas;
  const SimTime keep = std::max(hpa.scale_up_window, hpa.scale_down_window);
  for (SimTime now = start + hpa.sync_period; now <= end; now = now + hpa.sync_period) {
    if (current == 0) break;  // a Deployment scaled to 0 turns its HPA off
    int desired;
    if (current < hpa.min_replicas || current > hpa.max_replicas) {
      desired = std::clamp(current, hpa.min_replicas, hpa.max_replicas);
    } else {
      const int raw = RawRecommendation(hpa, current, hpa.load.At(now));
      desired = Stabilized(history, now, hpa, current, raw);
      history.push_back({now, raw});
      while (!history.empty() && history.front().at <= now - keep) history.pop_front();
      // The replicas at the start of the policies' period: changes strictly after it undone.
      int period_start = current;
      for (auto e = events.rbegin(); e != events.rend() && e->at > now - kPolicyPeriod; ++e) {
        period_start = e + 1 == events.rend() ? replicas : (e + 1)->replicas;
      }
      const int64_t up_limit =
          std::max<int64_t>(int64_t{2} * period_start, int64_t{period_start} + kScaleUpPods);
      desired = static_cast<int>(std::min<int64_t>(desired, up_limit));
      desired = std::clamp(desired, hpa.min_replicas, hpa.max_replicas);
    }
    if (desired != current) {
      events.push_back({.at = now, .replicas = desired});
      current = desired;
    }
  }
  return events;
}

}  // namespace migsim
