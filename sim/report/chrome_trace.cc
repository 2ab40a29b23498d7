// Chrome trace-event JSON ("JSON Object Format") for Perfetto and chrome://tracing.
//
// Layout, per variant in run order:
//  - a process "<variant> / cluster" with counters: GPU allocation, GPU utilization and
//    pods {pending, running} at each instant of the timeline;
//  - a process "<variant> / <node>" per node, with a thread (track) per device the pods
//    there got ("gpu3/1g.5gb@4", "gpu0/shared", "gpu0/250m", ...; a pod holding "a+b" is
//    drawn on both) and a "cpu" track for pods without a GPU. Devices that several pods
//    hold at once (time-sliced, MPS, fractional) get extra lanes "<device> (2)", ... so
//    that slices on one track never overlap, which the trace viewers require.
// Each pod run is a complete event from its start (its binding when it never started) to
// its end (the end of the run when it did not end); the start-up, binding → start, is a
// separate event "<pod> (starting)".
//
// One event per line so that traces diff well; each event is built and escaped by
// nlohmann::json.

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/report/run_report.h"

namespace migsim {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::string_view kCpuTrack = "cpu";

// Rounded to the microsecond, like the results JSON, so values are free of binary noise.
double Micro(double v) { return std::round(v * 1e6) / 1e6; }

// Natural order: runs of digits compare as numbers ("gpu2" < "gpu10"), the rest
// character by character; ties (e.g. leading zeros) fall back to plain comparison.
bool NaturalLess(std::string_view a, std::string_view b) {
  size_t i = 0, j = 0;
  auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      size_t ie = i, je = j;
      while (ie < a.size() && digit(a[ie])) ++ie;
      while (je < b.size() && digit(b[je])) ++je;
      std::string_view na = a.substr(i, ie - i), nb = b.substr(j, je - j);
      while (na.size() > 1 && na.front() == '0') na.remove_prefix(1);
      while (nb.size() > 1 && nb.front() == '0') nb.remove_prefix(1);
      if (na.size() != nb.size()) return na.size() < nb.size();
      if (na != nb) return na < nb;
      i = ie;
      j = je;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  if ((a.size() - i) != (b.size() - j)) return (a.size() - i) < (b.size() - j);
  return a < b;
}

// GPU devices in natural order, then the CPU track.
bool TrackLess(const std::string& a, const std::string& b) {
  const bool cpu_a = a == kCpuTrack, cpu_b = b == kCpuTrack;
  if (cpu_a != cpu_b) return cpu_b;
  return NaturalLess(a, b);
}

std::vector<std::string> DeviceSegments(const std::string& device) {
  if (device.empty()) return {std::string(kCpuTrack)};
  std::vector<std::string> out;
  size_t begin = 0;
  while (true) {
    const size_t plus = device.find('+', begin);
    std::string segment = device.substr(begin, plus - begin);
    if (!segment.empty() && std::find(out.begin(), out.end(), segment) == out.end()) {
      out.push_back(std::move(segment));
    }
    if (plus == std::string::npos) break;
    begin = plus + 1;
  }
  if (out.empty()) out.emplace_back(kCpuTrack);
  return out;
}

// A pod's stay on its node: [begin, end) in microseconds, and where its run starts.
struct Stay {
  const PodRecord* pod = nullptr;
  int64_t begin = 0;  // bound (or started when no binding was recorded)
  int64_t run = 0;    // started, or bound when it never started
  int64_t end = 0;
};

// The lanes of one device: each a list of stays that do not overlap.
struct Device {
  std::vector<std::vector<const Stay*>> lanes;
  std::vector<int64_t> lane_end;
};

struct NodeTracks {
  std::string name;
  std::vector<Stay> stays;
  std::map<std::string, Device, bool (*)(const std::string&, const std::string&)> devices{
      TrackLess};
};

Json Metadata(std::string_view name, int pid, std::optional<int> tid, Json args) {
  Json e;
  e["name"] = name;
  e["ph"] = "M";
  e["pid"] = pid;
  if (tid) e["tid"] = *tid;
  e["args"] = std::move(args);
  return e;
}

Json Counter(std::string_view name, int pid, int64_t ts, Json args) {
  return Json{{"name", name}, {"ph", "C"}, {"ts", ts},
              {"pid", pid},   {"tid", 0},  {"args", std::move(args)}};
}

Json Slice(const std::string& name, const PodRecord& pod, int pid, int tid, int64_t ts,
           int64_t end) {
  return Json{{"name", name},
              {"cat", pod.owner},
              {"ph", "X"},
              {"ts", ts},
              {"dur", std::max<int64_t>(0, end - ts)},
              {"pid", pid},
              {"tid", tid},
              {"args",
               {{"state", pod.state},
                {"reason", pod.reason},
                {"restarts", pod.restarts},
                {"owner", pod.owner},
                {"device", pod.device}}}};
}

class TraceWriter {
 public:
  void Add(const Json& event) {
    out_ += first_ ? "\n" : ",\n";
    out_ += event.dump(-1, ' ', false, Json::error_handler_t::replace);  // any path bytes
    first_ = false;
  }

  void Variant(const VariantResult& v) {
    const int64_t run_end = SimTime::Seconds(v.metrics.end_s).micros();

    // The cluster's counters.
    const int cluster_pid = NewProcess(v.name + " / cluster");
    for (const TimelinePoint& p : v.timeline) {
      const int64_t ts = p.at.micros();
      Add(Counter("GPU allocation", cluster_pid, ts, {{"value", Micro(p.allocation)}}));
      Add(Counter("GPU utilization", cluster_pid, ts, {{"value", Micro(p.utilization)}}));
      Add(Counter("pods", cluster_pid, ts, {{"pending", p.pending}, {"running", p.running}}));
    }
    if (v.faults) Faults(*v.faults, cluster_pid);
    if (v.autoscaling) NodeGroups(*v.autoscaling, cluster_pid);

    // Nodes in the order the run lists them; any other node a pod names after them.
    std::vector<NodeTracks> nodes;
    auto node_of = [&nodes](const std::string& name) -> NodeTracks& {
      for (NodeTracks& n : nodes) {
        if (n.name == name) return n;
      }
      nodes.emplace_back();
      nodes.back().name = name;
      return nodes.back();
    };
    for (const NodeRecord& n : v.nodes) node_of(n.name);
    for (const PodRecord& pod : v.pods) {
      if (pod.node.empty() || (!pod.bound && !pod.started)) continue;
      Stay s;
      s.pod = &pod;
      s.run = (pod.started ? *pod.started : *pod.bound).micros();
      s.begin = pod.bound ? std::min(pod.bound->micros(), s.run) : s.run;
      s.end = std::max(pod.ended ? pod.ended->micros() : run_end, s.run);
      node_of(pod.node).stays.push_back(s);
    }

    for (NodeTracks& node : nodes) Node(v.name, node);
  }

  std::string Finish(const RunReport& report) {
    std::string text = "{\"traceEvents\":[" + out_ + "\n],\n\"displayTimeUnit\":\"ms\"";
    if (report.file != nullptr) {
      const Json other{{"scenario", report.file->name}, {"file", report.file->path}};
      text += ",\n\"otherData\":" + other.dump(-1, ' ', false, Json::error_handler_t::replace);
    }
    return text + "}\n";
  }

 private:
  int NewProcess(const std::string& name) {
    const int pid = ++last_pid_;
    Add(Metadata("process_name", pid, std::nullopt, {{"name", name}}));
    Add(Metadata("process_sort_index", pid, std::nullopt, {{"sort_index", pid}}));
    return pid;
  }

  // Each fault, and each node or GPU back from one, as a global instant event ("fault
  // node-lost p4d-3", "repaired gpu-unhealthy p4d-0/gpu2"), and each pool's availability
  // as a counter.
  void Faults(const FaultMetrics& f, int cluster_pid) {
    for (const FaultEventRecord& e : f.events) {
      const std::string where = e.node + (e.gpu >= 0 ? "/gpu" + std::to_string(e.gpu) : "");
      Add(Json{{"name", (e.repaired ? "repaired " : "fault ") + e.kind + " " + where},
               {"cat", "fault"},
               {"ph", "i"},
               {"s", "g"},
               {"ts", e.at.micros()},
               {"pid", cluster_pid},
               {"tid", 0},
               {"args", {{"kind", e.kind}, {"node", e.node}, {"repaired", e.repaired}}}});
    }
    for (const PoolAvailability& a : f.availability) {
      for (const auto& [at, fraction] : a.series) {
        Add(Counter("availability " + a.pool, cluster_pid, at.micros(),
                    {{"value", Micro(fraction)}}));
      }
    }
  }

  // Each node group's nodes over time: billed (launched) and Ready, one counter track each.
  void NodeGroups(const AutoscalingMetrics& a, int cluster_pid) {
    for (const NodeGroupMetrics& g : a.groups) {
      for (const auto& [at, count] : g.billed_nodes) {
        Add(Counter("nodes billed " + g.pool, cluster_pid, at.micros(), {{"value", count}}));
      }
      for (const auto& [at, count] : g.ready_nodes) {
        Add(Counter("nodes Ready " + g.pool, cluster_pid, at.micros(), {{"value", count}}));
      }
    }
  }

  void Node(const std::string& variant, NodeTracks& node) {
    const int pid = NewProcess(variant + " / " + node.name);

    // Lanes, filled greedily in order of arrival (stable: ties keep the pods' order).
    std::vector<const Stay*> order;
    for (const Stay& s : node.stays) order.push_back(&s);
    std::stable_sort(order.begin(), order.end(),
                     [](const Stay* a, const Stay* b) { return a->begin < b->begin; });
    for (const Stay* s : order) {
      for (const std::string& segment : DeviceSegments(s->pod->device)) {
        Device& d = node.devices[segment];
        size_t lane = 0;
        while (lane < d.lanes.size() && d.lane_end[lane] > s->begin) ++lane;
        if (lane == d.lanes.size()) {
          d.lanes.emplace_back();
          d.lane_end.push_back(0);
        }
        d.lanes[lane].push_back(s);
        d.lane_end[lane] = s->end;
      }
    }

    int tid = 0;
    for (const auto& [name, device] : node.devices) {
      for (size_t lane = 0; lane < device.lanes.size(); ++lane) {
        ++tid;
        const std::string track = lane == 0 ? name : name + " (" + std::to_string(lane + 1) + ")";
        Add(Metadata("thread_name", pid, tid, {{"name", track}}));
        Add(Metadata("thread_sort_index", pid, tid, {{"sort_index", tid}}));
        for (const Stay* s : device.lanes[lane]) {
          if (s->begin < s->run) {
            Add(Slice(s->pod->name + " (starting)", *s->pod, pid, tid, s->begin, s->run));
          }
          Add(Slice(s->pod->name, *s->pod, pid, tid, s->run, s->end));
        }
      }
    }
  }

  std::string out_;
  bool first_ = true;
  int last_pid_ = 0;
};

}  // namespace

std::string FormatChromeTrace(const RunReport& report) {
  TraceWriter writer;
  for (const VariantResult& v : report.variants) writer.Variant(v);
  return writer.Finish(report);
}

}  // namespace migsim
