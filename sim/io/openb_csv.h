#pragma once
// Readers for the node and pod CSVs of the Alibaba openb trace (cluster-trace-gpu-v2023),
// as docs/openb-protocol.md §1 describes them.
//
//   sn,cpu_milli,memory_mib,gpu,model                    (node file: exactly this header)
//   openb-node-0000,64000,262144,2,P100
//
//   name,cpu_milli,memory_mib,num_gpu,gpu_milli[,gpu_spec][,...]   (pod file)
//   openb-pod-0001,6000,12288,1,460,,LS,Running,427061,12902960,427061
//
// Pod columns are found by header name: name, cpu_milli, memory_mib, num_gpu and gpu_milli
// are required; gpu_spec (the multigpu* files lack it) and the times creation_time,
// deletion_time and scheduled_time (seconds; an empty field is no time) are optional; any
// other column (qos, pod_phase) is ignored. Every row becomes one pod, in file order: no row is
// filtered by phase or QoS.
//
// Both readers accept LF or CRLF line ends, a UTF-8 byte-order mark, spaces around fields
// and blank lines (csv_lines.h). Quoted fields and text that is not UTF-8 are rejected.
// Numbers are non-negative decimal integers; cpu_milli is at most 100,000,000 and
// memory_mib at most 2^30 (1 PiB), GPU counts at most 64. The first bad line ends the parse: the Status is a
// ParseError (header, field count, quote) or an InvalidArgument (a value), located at
// {file, "line N"} with N counted from 1 over all physical lines.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sim/core/status.h"
#include "sim/policy/gpu_share.h"

namespace migsim {

struct OpenbNode {
  std::string name;    // column `sn`
  int64_t cpu_milli = 0;
  int64_t memory_mib = 0;
  int gpus = 0;        // column `gpu`; 0..64, each GPU has kMilliPerGpu milli
  std::string model;   // GPU model label ("G2", "T4", ...); empty for CPU-only nodes
  int line = 0;        // where the row is in its file, counted from 1
};

struct OpenbPod {
  std::string name;
  int64_t cpu_milli = 0;
  int64_t memory_mib = 0;
  // As the openb simulator sees the pod (protocol §1.2): shape.cpu_milli = cpu_milli;
  // shape.num_gpu = num_gpu (0..64); shape.gpu_milli = gpu_milli clipped to
  // [0, kMilliPerGpu], or 0 when num_gpu == 0; shape.gpu_type = gpu_spec without its empty
  // '|' pieces, or "" when num_gpu == 0 or the column is absent.
  PodShape shape;
  // The trace's times in seconds, when the file has the column and the row a value. The
  // fill experiment ignores them (protocol §1.2); a trace replay uses them.
  std::optional<int64_t> creation_s, deletion_s, scheduled_s;
  int line = 0;  // where the row is in its file, counted from 1
};

// Parse the text of a node CSV. `file` only labels error locations.
Result<std::vector<OpenbNode>> ParseOpenbNodes(std::string_view text, const std::string& file);

// Parse the text of a pod CSV. `file` only labels error locations.
Result<std::vector<OpenbPod>> ParseOpenbPods(std::string_view text, const std::string& file);

// Read (ReadInputFile: its errors when the file cannot be read) and parse a file.
Result<std::vector<OpenbNode>> LoadOpenbNodes(const std::string& path);

// Names identify nodes and pods in every output. Ok when no two of `rows` (OpenbNode or
// OpenbPod, in file order) share a name; otherwise an InvalidArgument at {file, "line N"}
// of the later one: "<what> 'x' is already on line M".
template <typename Row>
Status CheckUniqueNames(const std::vector<Row>& rows, const std::string& file,
                        std::string_view what) {
  std::unordered_map<std::string_view, int> line_of;
  for (const Row& row : rows) {
    if (const auto [other, fresh] = line_of.emplace(row.name, row.line); !fresh) {
      return Status::InvalidArgument(std::string(what) + " '" + row.name +
                                         "' is already on line " + std::to_string(other->second),
                                     {file, "line " + std::to_string(row.line)});
    }
  }
  return Status::Ok();
}
Result<std::vector<OpenbPod>> LoadOpenbPods(const std::string& path);

}  // namespace migsim
