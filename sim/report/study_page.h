#pragma once
// The frame of a study's HTML report (`migsim sweep/plan/openb --report`, `migsim report`):
// one self-contained page with inline CSS and SVG, no scripts, under the same Content
// Security Policy as the run report (html_report.cc).

#include <string>
#include <vector>

namespace migsim {

// The page up to and including <body> and its <h1>, with a note under the title.
std::string StudyPageStart(const std::string& title, const std::string& note);
// The page's end.
std::string StudyPageEnd();

// An HTML table: a header row and rows of cells, every text escaped; numeric cells (those
// that start with a digit, a sign or a '.') are right-aligned.
std::string HtmlTable(const std::vector<std::string>& header,
                      const std::vector<std::vector<std::string>>& rows);

}  // namespace migsim
