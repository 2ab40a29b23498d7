#include <cstdio>
#include <string>

#include "sim/report/csv_field.h"
#include "sim/report/run_report.h"

namespace migsim {
namespace {

std::string Seconds(std::optional<SimTime> t) {
  if (!t) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6f", t->seconds());
  return buf;
}

std::string Decimal(std::optional<double> v) {
  if (!v) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", *v);
  return buf;
}

}  // namespace

std::string PodsCsvHeader() {
  return "name,owner,node,device,created,bound,started,finished,state,reason,restarts,"
         "throughput,slowdown,wait\n";
}

std::string PodsCsvRow(const PodRecord& p) {
  return CsvField(p.name) + "," + CsvField(p.owner) + "," + CsvField(p.node) + "," +
         CsvField(p.device) + "," + Seconds(p.created) + "," + Seconds(p.bound) + "," +
         Seconds(p.started) + "," + Seconds(p.ended) + "," + p.state + "," + p.reason + "," +
         std::to_string(p.restarts) + "," + Decimal(p.throughput_per_s) + "," +
         Decimal(p.slowdown) + "," + Seconds(p.wait) + "\n";
}

std::string FormatPodsCsv(const VariantResult& variant) {
  std::string out = PodsCsvHeader();
  for (const PodRecord& p : variant.pods) out += PodsCsvRow(p);
  return out;
}

}  // namespace migsim
