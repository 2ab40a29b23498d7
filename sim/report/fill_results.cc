#include "sim/report/fill_results.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>

#include "sim/report/csv_field.h"

namespace migsim {
namespace {

// numpy's round: half to even, at `decimals` places.
double RoundHalfEven(double v, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::nearbyint(v * scale) / scale;  // default rounding mode: to nearest even
}

// A missing value (NaN: an empty bin with empty neighbours) is an empty cell, as pandas
// writes one.
std::string Number(double v, int decimals) {
  if (std::isnan(v)) return "";
  char buf[40];
  if (decimals < 0) {
    std::snprintf(buf, sizeof buf, "%.10g", v);
  } else {
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  }
  return buf;
}

// Mean of `value` over events per bin of round(arrived %), neighbours for empty bins.
std::vector<double> Bin(const FillResult& r, int max_percent,
                        const std::function<double(const FillEvent&)>& value) {
  std::vector<int64_t> arrived;
  std::vector<double> values;
  for (const FillEvent& e : r.events) {
    arrived.push_back(e.arrived_milli);
    values.push_back(value(e));
  }
  return BinByArrived(arrived, values, r.total_gpus, max_percent);
}

std::string Header(bool total_gpus, int max_percent) {
  std::string h = "workload,sc_policy,tune,seed";
  if (total_gpus) h += ",total_gpus";
  for (int x = 0; x <= max_percent; ++x) h += "," + std::to_string(x);
  return h + "\n";
}

std::string RowStart(const FillRun& run, bool total_gpus) {
  std::string row = CsvField(run.workload) + "," + run.config.policy + "," +
                    Number(run.config.tune_ratio, -1) + "," + std::to_string(run.config.seed);
  if (total_gpus) row += "," + std::to_string(run.result.total_gpus);
  return row;
}

std::string Table(const std::vector<FillRun>& runs, bool total_gpus, int decimals,
                  std::vector<double> FillCurves::*curve) {
  std::string out = Header(total_gpus, 130);
  for (const FillRun& run : runs) {
    std::string row = RowStart(run, total_gpus);
    const FillCurves curves = BinFill(run.result);  // keep it alive: the loop reads a member
    for (double v : curves.*curve) row += "," + Number(v, decimals);
    out += row + "\n";
  }
  return out;
}

}  // namespace

std::vector<double> BinByArrived(const std::vector<int64_t>& arrived_milli,
                                 const std::vector<double>& values, int64_t total_gpus,
                                 int max_percent) {
  const double capacity = static_cast<double>(total_gpus);
  std::vector<double> sum(static_cast<size_t>(max_percent) + 1, 0);
  std::vector<int64_t> count(sum.size(), 0);
  for (size_t i = 0; i < arrived_milli.size(); ++i) {
    const double x = RoundHalfEven(static_cast<double>(arrived_milli[i]) / capacity / 10, 0);
    if (x < 0 || x > max_percent) continue;
    sum[static_cast<size_t>(x)] += values[i];
    ++count[static_cast<size_t>(x)];
  }
  std::vector<double> out(sum.size(), 0);
  for (size_t x = 0; x < sum.size(); ++x) {
    double s = sum[x];
    int64_t c = count[x];
    if (c == 0) {
      for (size_t y : {x - 1, x + 1}) {
        if (y < sum.size()) s += sum[y], c += count[y];
      }
    }
    out[x] = c > 0 ? s / static_cast<double>(c) : std::numeric_limits<double>::quiet_NaN();
  }
  return out;
}

MigCurves BinMigFill(const MigFillResult& r, int max_percent) {
  // The x-axis is the openb cluster's arrived %, as in the milli-GPU experiment; the
  // y-values are shares of the MIG cluster's own capacity.
  const int64_t openb_gpus = r.capacity_gpus;
  std::vector<int64_t> arrived;
  std::vector<double> placed, slices, frag;
  const double gpus = static_cast<double>(r.gpus);
  for (const MigFillEvent& e : r.events) {
    arrived.push_back(e.arrived_milli);
    placed.push_back(100.0 * static_cast<double>(e.placed_milli) / (1000 * gpus));
    slices.push_back(100.0 * static_cast<double>(e.used_slices) / (7 * gpus));
    frag.push_back(100.0 * e.frag_slices / (7 * gpus));
  }
  MigCurves c;
  c.placed = BinByArrived(arrived, placed, openb_gpus, max_percent);
  c.slices = BinByArrived(arrived, slices, openb_gpus, max_percent);
  c.frag = BinByArrived(arrived, frag, openb_gpus, max_percent);
  for (std::vector<double>* v : {&c.placed, &c.slices, &c.frag}) {
    for (double& x : *v) x = RoundHalfEven(x, 2);
  }
  return c;
}

std::string FormatMigCsv(const std::vector<MigFillRun>& runs,
                         std::vector<double> MigCurves::*curve) {
  std::string out = "workload,variant,tune,seed,total_gpus";
  for (int x = 0; x <= 130; ++x) out += "," + std::to_string(x);
  out += "\n";
  for (const MigFillRun& run : runs) {
    const MigCurves curves = BinMigFill(run.result);
    out += CsvField(run.workload) + "," + run.variant + "," + Number(run.tune, -1) + "," +
           std::to_string(run.seed) + "," + std::to_string(run.result.gpus);
    for (double v : curves.*curve) out += "," + Number(v, 2);
    out += "\n";
  }
  return out;
}

FillCurves BinFill(const FillResult& r, int max_percent) {
  const double capacity = static_cast<double>(r.total_gpus);
  FillCurves c;
  c.alloc = Bin(r, max_percent, [&](const FillEvent& e) {
    return RoundHalfEven(static_cast<double>(e.used_milli) / capacity / 10, 2);
  });
  for (double& v : c.alloc) v = RoundHalfEven(v, 2);
  c.frag = Bin(r, max_percent, [](const FillEvent& e) { return e.frag_milli; });
  for (double& v : c.frag) v = RoundHalfEven(100 * v / 1000 / capacity, 2);
  c.frag_ratio = Bin(r, max_percent, [](const FillEvent& e) {
    return e.idle_milli > 0 ? 100 * e.frag_milli / e.idle_milli : 0;
  });
  return c;
}

std::string FormatAllocCsv(const std::vector<FillRun>& runs) {
  return Table(runs, true, 2, &FillCurves::alloc);
}
std::string FormatFragCsv(const std::vector<FillRun>& runs) {
  return Table(runs, false, 2, &FillCurves::frag);
}
std::string FormatFragRatioCsv(const std::vector<FillRun>& runs) {
  return Table(runs, true, -1, &FillCurves::frag_ratio);
}

std::string FormatFailedCsv(const std::vector<FillRun>& runs) {
  std::string out =
      "order,workload,sc_policy,tune,seed,num_pod,cpu_milli,num_gpu,gpu_milli,gpu_type_req\n";
  for (const FillRun& run : runs) {
    int order = 0;
    for (const FailedShape& f : run.result.failed) {
      out += std::to_string(order++) + "," + RowStart(run, false) + "," + std::to_string(f.count) +
             "," + std::to_string(f.shape.cpu_milli) + "," + std::to_string(f.shape.num_gpu) + "," +
             std::to_string(f.shape.gpu_milli) + "," +
             (f.shape.gpu_type.empty() ? "<none>" : f.shape.gpu_type) + "\n";
    }
  }
  return out;
}

std::string FormatFinalStateCsv(const std::vector<FillRun>& runs) {
  std::string out =
      "workload,sc_policy,tune,seed,milli_cpu_pct,memory_pct,gpus_allocated,gpus_allocated_pct,"
      "milli_gpu_pct,idle_milli,frag_milli,frag_pct_of_idle,q1,q2,q3,q4,xl,xr,no_access\n";
  auto pct = [](double part, double whole) { return Number(whole > 0 ? 100 * part / whole : 0, 2); };
  for (const FillRun& run : runs) {
    const FillFinalState& f = run.result.final_state;
    const double capacity = 1000.0 * static_cast<double>(run.result.total_gpus);
    const double idle = f.idle.idle();
    out += RowStart(run, false) + "," +
           pct(static_cast<double>(f.cpu_milli_used), static_cast<double>(f.cpu_milli_total)) +
           "," +
           pct(static_cast<double>(f.memory_mib_used), static_cast<double>(f.memory_mib_total)) +
           "," + std::to_string(f.gpus_allocated) + "," +
           pct(static_cast<double>(f.gpus_allocated), static_cast<double>(run.result.total_gpus)) +
           "," + pct(static_cast<double>(f.milli_gpu_used), capacity) + "," + Number(idle, 2) +
           "," + Number(f.idle.fragment(), 2) + "," + pct(f.idle.fragment(), idle);
    for (double part : {f.idle.q1, f.idle.q2, f.idle.q3, f.idle.q4, f.idle.xl, f.idle.xr, f.idle.na})
      out += "," + pct(part, idle);
    out += "\n";
  }
  return out;
}

}  // namespace migsim
