#pragma once
// The summary table's content (summary_table.cc), shared by the terminal table
// (FormatSummaryTable) and the HTML report's <table> (summary_html.cc).

#include <string>
#include <vector>

#include "sim/report/run_report.h"

namespace migsim {

struct SummaryRow {
  std::string label;
  std::vector<std::string> cells;  // one per variant
};

// The metric rows (README "The table"), one cell per variant. REQUIRES: report.file.
std::vector<SummaryRow> SummaryRows(const RunReport& report);

// The notes under the table, a line each ("\n"-terminated): pods unfinished at the end,
// gangs never scheduled, the queueing-theory comparison, the energy assumptions.
// (summary_notes.cc)
std::string SummaryNotes(const RunReport& report);

// The report's "Summary" section: the rows as an HTML <table> (variants as columns), the
// notes as paragraphs. (summary_html.cc)
std::string FormatSummaryHtml(const RunReport& report);

}  // namespace migsim
