#include "sim/python/table.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>

namespace migsim::python {
namespace py = pybind11;
namespace {

// The fields of the record at the front of `text`, unquoted; removes it (and its line
// break) from `text`. A quoted field may hold commas, quotes ("") and line breaks.
std::vector<std::string> NextRecord(std::string_view* text) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  size_t i = 0;
  for (; i < text->size(); ++i) {
    const char c = (*text)[i];
    if (quoted && c == '"' && i + 1 < text->size() && (*text)[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (!quoted && c == ',') {
      fields.emplace_back();
    } else if (!quoted && c == '\n') {
      break;
    } else if (quoted || c != '\r') {
      fields.back() += c;
    }
  }
  text->remove_prefix(std::min(i + 1, text->size()));
  return fields;
}

bool Named(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

bool Whole(const std::string& s) {
  int64_t v = 0;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), v);
  return error == std::errc() && end == s.data() + s.size();
}

bool Decimal(const std::string& s) {
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  return !s.empty() && end == s.c_str() + s.size();
}

// One column's cells as Python values, as ColumnKinds says.
py::list Column(const std::string& name, const std::vector<std::string>& cells,
                const ColumnKinds& kinds) {
  py::list out;
  const bool text = Named(kinds.text, name);
  const bool json = Named(kinds.json, name);
  bool all_bool = true, all_whole = !Named(kinds.decimal, name), all_numbers = true;
  for (const std::string& c : cells) {
    if (c.empty()) continue;
    all_bool = all_bool && (c == "true" || c == "false");
    all_whole = all_whole && Whole(c);
    all_numbers = all_numbers && Decimal(c);
  }
  const py::object loads = py::module_::import("json").attr("loads");
  for (const std::string& c : cells) {
    if (text) {
      out.append(c);
    } else if (c.empty()) {
      out.append(py::none());
    } else if (json) {
      out.append(loads(c));
    } else if (all_bool) {
      out.append(c == "true");
    } else if (all_whole) {
      out.append(py::int_(std::strtoll(c.c_str(), nullptr, 10)));
    } else if (all_numbers) {
      out.append(std::strtod(c.c_str(), nullptr));
    } else {
      out.append(c);
    }
  }
  return out;
}

// Adds the numbers and strings under `value` to `row`, named `prefix` and the keys below.
void Flatten(const std::string& prefix, const py::handle& value,
             std::map<std::string, py::object>* row, std::vector<std::string>* order) {
  if (py::isinstance<py::dict>(value)) {
    for (const auto& [key, inner] : value.cast<py::dict>()) {
      const std::string name = py::str(key).cast<std::string>();
      Flatten(prefix.empty() ? name : prefix + "." + name, inner, row, order);
    }
    return;
  }
  if (py::isinstance<py::list>(value)) return;  // no list is a metric
  if (!row->contains(prefix) && !Named(*order, prefix)) order->push_back(prefix);
  (*row)[prefix] = py::reinterpret_borrow<py::object>(value);
}

}  // namespace

py::dict TableFromCsv(std::string_view csv, const ColumnKinds& kinds) {
  const std::vector<std::string> header = NextRecord(&csv);
  std::vector<std::vector<std::string>> columns(header.size());
  while (!csv.empty()) {
    const std::vector<std::string> record = NextRecord(&csv);
    if (record.size() == 1 && record[0].empty()) continue;  // a blank line
    for (size_t i = 0; i < columns.size(); ++i) {
      columns[i].push_back(i < record.size() ? record[i] : "");
    }
  }
  py::dict table;
  for (size_t i = 0; i < header.size(); ++i) {
    table[py::str(header[i])] = Column(header[i], columns[i], kinds);
  }
  return table;
}

py::dict TableFromResults(const py::list& rows) {
  std::vector<std::string> order = {"name", "policy", "seed"};
  std::vector<std::map<std::string, py::object>> flat;
  for (const py::handle& r : rows) {
    const py::dict result = r.cast<py::dict>();
    std::map<std::string, py::object>& row = flat.emplace_back();
    for (const char* key : {"name", "policy", "seed"}) row[key] = result[key].cast<py::object>();
    if (result.contains("metrics")) Flatten("", result["metrics"], &row, &order);
    for (const char* key : {"faults", "energy", "policy_decisions", "rejected_decisions"}) {
      if (result.contains(key)) Flatten(key, result[key], &row, &order);
    }
  }
  py::dict table;
  for (const std::string& name : order) {
    py::list column;
    for (const auto& row : flat) {
      const auto it = row.find(name);
      column.append(it == row.end() ? py::none() : it->second);
    }
    table[py::str(name)] = column;
  }
  return table;
}

}  // namespace migsim::python
