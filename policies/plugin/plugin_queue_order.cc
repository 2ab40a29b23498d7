#include "policies/plugin/plugin_queue_order.h"

#include <vector>

namespace migsim {
namespace {

// One pod's C form and the buffers it points into, reused from call to call.
struct QueuedPodBuffer {
  migsim_queued_pod pod{};
  std::vector<migsim_request> requests;
  std::vector<migsim_label> labels;
};

class PluginQueueOrder final : public QueueOrder {
 public:
  PluginQueueOrder(PluginQueueLess less, void* instance, const QueueNames& names)
      : less_(less), instance_(instance), namespaces_(names.namespaces) {
    for (size_t r = 0; r < names.resources->size(); ++r) {
      resource_names_.push_back(
          names.resources->name(ResourceId(static_cast<ResourceId::Rep>(r))).c_str());
    }
  }
  std::string_view name() const override { return "policy"; }
  bool Less(const PodView& a, const PodView& b) const override {
    Fill(a, a_), Fill(b, b_);
    return less_(instance_, &a_.pod, &b_.pod) != 0;
  }
  // The plugin may tell apart pods of one scheduling class (by creation, labels, ...).
  bool OrdersWithinClass() const override { return true; }

 private:
  void Fill(const PodView& view, QueuedPodBuffer& out) const;

  PluginQueueLess less_;
  void* instance_;
  std::span<const std::string> namespaces_;
  std::vector<const char*> resource_names_;
  mutable QueuedPodBuffer a_, b_;
};

void PluginQueueOrder::Fill(const PodView& view, QueuedPodBuffer& out) const {
  out.requests.clear();
  for (const ResourceRequest& r : view.requests->extended) {
    out.requests.push_back({r.resource.value(), r.count});
  }
  out.labels.clear();
  if (view.labels != nullptr) {
    for (const auto& [key, value] : *view.labels)
      out.labels.push_back({key.c_str(), value.c_str()});
  }
  migsim_queued_pod& p = out.pod;
  p.struct_size = sizeof(migsim_queued_pod);
  p.id = view.id.value();
  p.created_us = view.created.micros();
  p.priority = view.priority;
  p.run_estimate_us = view.run_estimate ? view.run_estimate->micros() : -1;
  p.cpu_milli = view.requests->cpu_milli;
  p.memory_mib = view.requests->memory_mib;
  p.requests = out.requests.data();
  p.request_count = static_cast<uint32_t>(out.requests.size());
  p.resource_names = resource_names_.data();
  p.resource_count = static_cast<uint32_t>(resource_names_.size());
  const auto ns = static_cast<size_t>(view.namespace_index);
  p.namespace_name = ns < namespaces_.size() ? namespaces_[ns].c_str() : "default";
  p.labels = out.labels.data();
  p.label_count = static_cast<uint32_t>(out.labels.size());
}

}  // namespace

std::unique_ptr<QueueOrder> MakePluginQueueOrder(PluginQueueLess less, void* instance,
                                                 const QueueNames& names) {
  return std::make_unique<PluginQueueOrder>(less, instance, names);
}

}  // namespace migsim
