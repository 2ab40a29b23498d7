#pragma once
// The writers that present a run of a scenario file's variants (RunReport, sim/study/run.h):
// the side-by-side table, the results JSON, the per-pod and time-series CSVs, the HTML
// report and the Perfetto trace. Every column and field is documented in README.md
// ("Output").

#include <string>
#include <vector>

#include "sim/study/run.h"

namespace migsim {

// Metrics as rows, variants as columns.
std::string FormatSummaryTable(const RunReport& report);

// {"scenario": ..., "variants": [{"name", "metrics": {...}, "nodes": [...]}, ...]}
std::string FormatResultsJson(const RunReport& report);

// One row per pod: name,owner,node,device,created,bound,started,finished,state,reason,
// restarts,throughput,slowdown,wait.
std::string FormatPodsCsv(const VariantResult& variant);
// Its header line and one pod's line, for a listing written as the run goes
// (RunOptions::pod_sink).
std::string PodsCsvHeader();
std::string PodsCsvRow(const PodRecord& pod);

// A self-contained HTML report (inline SVG; no scripts, no network): per variant and side
// by side. REQUIRES: variants collected with pods and timeline. (html_report.cc)
std::string FormatHtmlReport(const RunReport& report);

// Chrome trace-event JSON that Perfetto and chrome://tracing open: a process per variant
// and node, a track per GPU device, a slice per pod run, counters for allocation,
// utilization and pending pods. REQUIRES: pods and timeline collected. (chrome_trace.cc)
std::string FormatChromeTrace(const RunReport& report);

// One line per variant that deleted pods without ever binding them: "variant fixed-6: 28
// pods were deleted without ever binding (Deployment/chat 28), the longest after 10.1 h".
// `migsim run` prints them on stderr and the HTML report shows them. (unserved_warnings.cc)
std::vector<std::string> UnservedWarnings(const RunReport& report);

// One line per variant whose policy gave answers the engine refused: "policy 'x' in variant
// 'y': 1234 of 5000 decisions were rejected (first: at 3.5 s, pod web-3: node 7 does not
// exist (the cluster has 4 nodes))". `migsim run` prints them on stderr and the HTML report
// shows them. (rejection_warnings.cc)
std::vector<std::string> RejectionWarnings(const RunReport& report);

// time_s,allocation,utilization,pending,running — one row per instant of the timeline.
std::string FormatTimeseriesCsv(const VariantResult& variant);

// variant,kwh,gpu_kwh,allocated_idle_kwh,node_kwh,mean_watts,cost_usd,co2_kg,pue,
// price_per_kwh,grid_gco2_per_kwh, then gpu_kwh_<model> per GPU model of any variant — one
// row per variant (EnergyMetrics). (energy_csv.cc)
std::string FormatEnergyCsv(const RunReport& report);

}  // namespace migsim
