// The HTML report's Gantt chart of a variant's pod runs on each GPU device (html_report.cc):
// one lane per device, grouped by node and GPU, bars coloured by owner.

#include "sim/report/device_gantt.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "sim/report/svg_chart.h"

namespace migsim {
namespace {

constexpr size_t kMaxGanttRows = 300;
constexpr size_t kMaxOwnersInLegend = 12;
constexpr int kGanttWidth = 1340;

std::string Seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", s);
  return buf;
}

// Where a device of a pod sits: "gpu3/1g.5gb@4" is GPU "gpu3", slice "1g.5gb@4".
struct DeviceRowKey {
  size_t node_rank = 0;
  std::string node;
  long gpu_number = 0;
  std::string gpu;
  long slice_start = -1;  // a MIG device's first memory slice; -1 for others
  std::string slice;      // empty for a whole GPU
  auto operator<=>(const DeviceRowKey&) const = default;
};

using DeviceRows = std::map<DeviceRowKey, std::vector<const PodRecord*>>;

long NumberAfter(const std::string& text, char mark) {
  size_t at = text.find(mark);
  return at == std::string::npos ? -1 : std::strtol(text.c_str() + at + 1, nullptr, 10);
}

using NodeRanks = std::map<std::string, size_t>;         // node name -> its index in `nodes`
using OwnerColors = std::map<std::string, std::string>;  // owner -> its bars' colour

DeviceRowKey MakeRowKey(const NodeRanks& ranks, const std::string& node,
                        const std::string& device) {
  DeviceRowKey key;
  auto rank = ranks.find(node);
  key.node_rank = rank == ranks.end() ? ranks.size() : rank->second;
  key.node = node;
  size_t slash = device.find('/');
  key.gpu = device.substr(0, slash);
  key.gpu_number = NumberAfter(key.gpu, 'u');  // "gpu3" -> 3
  if (slash != std::string::npos) {
    key.slice = device.substr(slash + 1);
    key.slice_start = NumberAfter(key.slice, '@');
  }
  return key;
}

// Every pod that ran (or started) on a GPU device, on each of its devices ("a+b").
DeviceRows GroupByDevice(const VariantResult& v) {
  NodeRanks ranks;
  for (size_t i = 0; i < v.nodes.size(); ++i) ranks.emplace(v.nodes[i].name, i);
  DeviceRows rows;
  for (const PodRecord& p : v.pods) {
    if (p.node.empty() || p.device.empty() || !(p.started || p.bound)) continue;
    for (size_t begin = 0; begin <= p.device.size();) {
      size_t end = std::min(p.device.find('+', begin), p.device.size());
      if (end > begin) {
        rows[MakeRowKey(ranks, p.node, p.device.substr(begin, end - begin))].push_back(&p);
      }
      begin = end + 1;
    }
  }
  return rows;
}

std::pair<double, double> RunSpan(const PodRecord& p, double end_s) {
  double from = (p.started ? *p.started : *p.bound).seconds();
  return {from, p.ended ? p.ended->seconds() : end_s};
}

std::string Tooltip(const PodRecord& p, std::pair<double, double> span) {
  std::string out = p.name + " (" + p.owner + "): " + Seconds(span.first) + " - " +
                    Seconds(span.second) + " s, " + p.state;
  return p.reason.empty() ? out : out + " (" + p.reason + ")";
}

// The pods of one device on as few rows (lanes) as keep their bars from overlapping:
// one for a MIG slice or a whole GPU, several for a time-sliced or shared GPU.
void AddLanes(svg::Gantt& gantt, const std::string& label, int level,
              std::vector<const PodRecord*> pods, double end_s, const OwnerColors& colors) {
  std::stable_sort(pods.begin(), pods.end(), [&](const PodRecord* a, const PodRecord* b) {
    return RunSpan(*a, end_s).first < RunSpan(*b, end_s).first;
  });
  std::vector<std::pair<double, size_t>> lanes;  // end of the last bar, row
  for (const PodRecord* p : pods) {
    auto span = RunSpan(*p, end_s);
    auto lane = std::find_if(lanes.begin(), lanes.end(),
                             [&](const auto& l) { return l.first <= span.first; });
    if (lane == lanes.end()) {
      lanes.emplace_back(0, gantt.AddRow(lanes.empty() ? label : "", level));
      lane = lanes.end() - 1;
    }
    lane->first = span.second;
    gantt.AddBar(lane->second, span.first, span.second, colors.at(p->owner), Tooltip(*p, span));
  }
}

std::string NodeLabel(const VariantResult& v, const std::string& node) {
  for (const NodeRecord& n : v.nodes) {
    if (n.name == node && !n.type.empty()) return node + " (" + n.type + ")";
  }
  return node;
}

// The owners in the order their first bar comes, each with a colour of its own
// (svg::DistinctColors: with many owners, a hash of the name would give two the same).
OwnerColors AddOwnerLegend(svg::Gantt& gantt, const DeviceRows& rows) {
  std::vector<std::string> owners;
  std::set<std::string> seen;
  for (const auto& [key, pods] : rows) {
    for (const PodRecord* p : pods) {
      if (seen.insert(p->owner).second) owners.push_back(p->owner);
    }
  }
  const std::vector<std::string> palette = svg::DistinctColors(owners.size());
  OwnerColors colors;
  for (size_t i = 0; i < owners.size(); ++i) colors.emplace(owners[i], palette[i]);
  for (size_t i = 0; i < owners.size() && i < kMaxOwnersInLegend; ++i) {
    gantt.AddLegendEntry(owners[i], palette[i]);
  }
  if (owners.size() > kMaxOwnersInLegend) {
    gantt.AddLegendEntry(
        "and " + std::to_string(owners.size() - kMaxOwnersInLegend) + " more owners", "none");
  }
  return colors;
}

// Node header, then per GPU either one row ("gpu0") or a GPU header over its slices
// ("1g.5gb@0", "1g.5gb@1", ...), so that the MIG partitioning shows.
svg::Gantt BuildGantt(const VariantResult& v, const DeviceRows& rows) {
  double end_s = v.metrics.end_s;
  svg::Gantt gantt("Pod runs per GPU device: " + v.name, end_s);
  const OwnerColors colors = AddOwnerLegend(gantt, rows);
  const std::string* node = nullptr;
  const std::string* gpu = nullptr;
  for (const auto& [key, pods] : rows) {
    if (!node || *node != key.node) {
      gantt.AddHeader(NodeLabel(v, key.node), 0);
      node = &key.node;
      gpu = nullptr;
    }
    bool whole = key.slice.empty();
    if (!whole && (!gpu || *gpu != key.gpu)) gantt.AddHeader(key.gpu, 1);
    gpu = &key.gpu;
    AddLanes(gantt, whole ? key.gpu : key.slice, whole ? 1 : 2, pods, end_s, colors);
  }
  return gantt;
}

}  // namespace

std::string DeviceGanttSection(const VariantResult& v) {
  std::string out = "<h3>" + svg::Escape(v.name) + " (" + svg::Escape(v.policy) + ")</h3>\n";
  if (v.pods.empty()) return out + "<p class=\"note\">No pods (not collected).</p>\n";
  DeviceRows rows = GroupByDevice(v);
  if (rows.empty()) return out + "<p class=\"note\">No pod ran on a GPU device.</p>\n";
  // A run that gave back the records of pods that were over lists only its first pods
  // (RunOptions::pod_sink; README "Large runs"): the chart says what it draws.
  const auto listed = static_cast<int64_t>(v.pods.size());
  if (listed < v.metrics.pods.submitted) {
    out += "<p class=\"note\">Drawn: the first " + std::to_string(listed) + " of " +
           std::to_string(v.metrics.pods.submitted) +
           " pods (a run that gives back the records of pods that are over keeps only "
           "these; every metric covers every pod).</p>\n";
  }
  return out + "<div>" + BuildGantt(v, rows).Render(kGanttWidth, kMaxGanttRows) + "</div>\n";
}

}  // namespace migsim
