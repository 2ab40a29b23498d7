#include "sim/controllers/cluster_autoscaler/cluster_autoscaler.h"

#include "sim/controllers/cluster_autoscaler/expander.h"

namespace migsim {

ClusterAutoscaler::ClusterAutoscaler(const ClusterAutoscalerSpec& spec)
    : NodeGroups(spec.max_node_provision_time, spec.node_group_backoff, spec.scan_interval),
      spec_(spec) {}

void ClusterAutoscaler::Start(ClusterApi& api) {
  NodeGroups::Start(api);
  rng_ = Rng(api.seed() ^ 0x94d049bb133111ebULL);
  unneeded_since_.assign(node_count(), SimTime::Max());
}

void ClusterAutoscaler::Loop(ClusterApi& api) {
  bool backed_off = false;
  if (std::vector<ScaleUpOption> options = ScaleUpOptions(api, backed_off, false);
      !options.empty()) {
    const ScaleUpOption& option =
        options[ChooseOption(spec_.expander, options, api.cluster().node_groups, rng_)];
    LaunchNodes(api, option.group, option.nodes);
  }
  ScaleDown(api);
}

bool ClusterAutoscaler::MayAct(const ClusterApi& api) const {
  if (draining() > 0 || AnyProvisioning()) return true;
  const std::vector<int32_t> allowed = api.disruption_budgets().Allowed();
  for (uint32_t node = 0; node < node_count(); ++node) {
    if (group_of(node) >= 0 && state(node) == State::kReady && AboveMin(group_of(node)) &&
        Unneeded(api, node, allowed)) {
      return true;
    }
  }
  bool backed_off = false;
  const bool endless = api.horizon() == SimTime::Max();
  return !ScaleUpOptions(api, backed_off, endless).empty() || backed_off;
}

std::vector<ScaleUpOption> ClusterAutoscaler::ScaleUpOptions(const ClusterApi& api,
                                                             bool& backed_off,
                                                             bool registering_only) const {
  std::vector<PendingPods> kinds = PendingBeyondUpcoming(api);
  std::vector<ScaleUpOption> options;
  if (kinds.empty()) return options;
  for (const Offering& o : Offerings(api, registering_only, &backed_off)) {
    ScaleUpOption option = EstimateScaleUp(o.group, *o.spec, o.price_per_hour, o.room, kinds,
                                           scratch_resources(), api.device_classes());
    if (option.pods > 0) options.push_back(option);
  }
  return options;
}

void ClusterAutoscaler::LaunchNodes(ClusterApi& api, uint32_t group, uint32_t count) {
  CountScaleUp(group);
  last_scale_up_ = api.now();
  scaled_up_ = true;
  for (uint32_t i = 0; i < count; ++i) Launch(api, group);
}

void ClusterAutoscaler::NodeBecameReady(ClusterApi& /*api*/, uint32_t node) {
  unneeded_since_[node] = SimTime::Max();
}

// Every termination, a scale-down's or not, restarts the delay after a scale-down.
void ClusterAutoscaler::NodeTerminated(ClusterApi& api, uint32_t node) {
  last_scale_down_ = api.now();
  scaled_down_ = true;
  unneeded_since_[node] = SimTime::Max();
}

void ClusterAutoscaler::DrainAborted(ClusterApi& api, uint32_t node) {
  unneeded_since_[node] = SimTime::Max();
  last_drain_failure_ = api.now();
  drain_failed_ = true;
}

}  // namespace migsim
