// The HTML report's summary: the terminal table's rows and notes (summary_rows.h) as a
// <table>, so that a browser aligns, wraps and copies it as cells.

#include <string>

#include "sim/report/summary_rows.h"
#include "sim/report/svg_chart.h"

namespace migsim {

std::string FormatSummaryHtml(const RunReport& report) {
  ScenarioFile unnamed;
  const RunReport named{report.file ? report.file : &unnamed, report.variants};
  std::string out = "<h2>Summary</h2>\n<table class=\"summary\"><tr><th>metric</th>";
  for (const VariantResult& v : report.variants) out += "<th>" + svg::Escape(v.name) + "</th>";
  out += "</tr>\n";
  for (const SummaryRow& row : SummaryRows(named)) {
    out += "<tr><th>" + svg::Escape(row.label) + "</th>";
    for (const std::string& cell : row.cells) out += "<td>" + svg::Escape(cell) + "</td>";
    out += "</tr>\n";
  }
  out += "</table>\n";
  const std::string notes = SummaryNotes(named);
  for (size_t begin = 0; begin < notes.size();) {
    size_t end = notes.find('\n', begin);
    if (end == std::string::npos) end = notes.size();
    out += "<p class=\"note\">" + svg::Escape(notes.substr(begin, end - begin)) + "</p>\n";
    begin = end + 1;
  }
  return out;
}

}  // namespace migsim
