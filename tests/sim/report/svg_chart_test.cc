#include "sim/report/svg_chart.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <set>
#include <string>
#include <vector>

namespace migsim::svg {
namespace {

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

void CheckTicks(const std::vector<double>& actual, const std::vector<double>& expected) {
  REQUIRE(actual.size() == expected.size());
  for (size_t i = 0; i < actual.size(); ++i) CHECK(actual[i] == Approx(expected[i]).margin(1e-12));
}

TEST_CASE("escaping replaces the five markup characters and keeps the rest", "[report]") {
  CHECK(Escape("a<b>&\"c\"'d'") == "a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;");
  CHECK(Escape("plain gpu0/1g.5gb@4") == "plain gpu0/1g.5gb@4");
  CHECK(Escape("") == "");
}

TEST_CASE("coordinates are rounded to a tenth without trailing zeros", "[report]") {
  CHECK(Coord(12.34) == "12.3");
  CHECK(Coord(4.0) == "4");
  CHECK(Coord(4.96) == "5");
  CHECK(Coord(-0.01) == "0");
  CHECK(Coord(-0.5) == "-0.5");
}

TEST_CASE("ticks are nice numbers inside the range", "[report]") {
  CheckTicks(Ticks(0, 1, 5), {0, 0.2, 0.4, 0.6, 0.8, 1});
  CHECK(TickStep(0, 87, 5) == 20);
  CheckTicks(Ticks(0, 87, 5), {0, 20, 40, 60, 80});
  CheckTicks(Ticks(3, 17, 10), {4, 6, 8, 10, 12, 14, 16});
  CheckTicks(Ticks(-1, 1, 4), {-1, -0.5, 0, 0.5, 1});
  CheckTicks(Ticks(0, 0, 5), {0, 0.2, 0.4, 0.6, 0.8, 1});  // an empty range becomes [0, 1]
}

TEST_CASE("tick labels carry the decimals their step needs", "[report]") {
  CHECK(TickLabel(0.6000000000000001, 0.2) == "0.6");
  CHECK(TickLabel(40, 20) == "40");
  CHECK(TickLabel(0.05, 0.05) == "0.05");
  CHECK(TickLabel(-0.0, 0.5) == "0.0");
  CHECK(TickLabel(1250, 250) == "1250");
}

TEST_CASE("a step line holds each value until the next sample", "[report]") {
  std::vector<Point> samples = {{0, 0}, {2, 1}, {5, 3}};
  CHECK(StepVertices(samples) == std::vector<Point>{{0, 0}, {2, 0}, {2, 1}, {5, 1}, {5, 3}});
  CHECK(StepVertices(std::vector<Point>{}).empty());
}

TEST_CASE("downsampling keeps the first, the last and the extremes of every column", "[report]") {
  std::vector<Point> points;
  for (int i = 0; i <= 1000; ++i) points.push_back({i * 0.1, static_cast<double>(i % 7)});
  points[500].y = 100;  // a spike
  points[731].y = -50;  // a dip
  std::vector<Point> kept = Downsample(points, 0, 100, 10);
  CHECK(kept.size() <= 22);
  CHECK(kept.front() == points.front());
  CHECK(kept.back() == points.back());
  CHECK(std::find(kept.begin(), kept.end(), points[500]) != kept.end());
  CHECK(std::find(kept.begin(), kept.end(), points[731]) != kept.end());
  CHECK(std::is_sorted(kept.begin(), kept.end(),
                       [](const Point& a, const Point& b) { return a.x < b.x; }));
}

TEST_CASE("downsampling leaves a short series alone", "[report]") {
  std::vector<Point> points = {{0, 1}, {1, 2}, {2, 0}};
  CHECK(Downsample(points, 0, 2, 1) == points);
}

TEST_CASE("key colours are stable hex colours", "[report]") {
  CHECK(KeyColor("Workflow/super-resolution") == KeyColor("Workflow/super-resolution"));
  CHECK(KeyColor("Job/a") != KeyColor("Job/b"));
  CHECK(KeyColor("Job/a").size() == 7);
  CHECK(KeyColor("Job/a")[0] == '#');
  CHECK(SeriesColor(0) != SeriesColor(1));
}

TEST_CASE("a line chart renders a polyline per series with a legend and axes", "[report]") {
  LineChart chart("Pods <over> time", "time (s)", "pods");
  chart.AddSeries("a&b", {{0, 0}, {10, 4}, {20, 1}}, true);
  chart.AddSeries("c", {{0, 1}, {20, 2}}, false);
  std::string svg = chart.Render(600, 300);
  CHECK(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
  CHECK(svg.ends_with("</svg>"));
  CHECK(Count(svg, "<polyline") == 2);
  CHECK(svg.find("Pods &lt;over&gt; time") != std::string::npos);
  CHECK(svg.find(">a&amp;b</text>") != std::string::npos);
  CHECK(svg.find(">time (s)</text>") != std::string::npos);
  CHECK(svg.find(">20</text>") != std::string::npos);  // an x tick
  CHECK(svg.find(">4</text>") != std::string::npos);   // the y axis reaches the maximum
}

TEST_CASE("a long series renders at most a few points per pixel column", "[report]") {
  std::vector<Point> points;
  points.reserve(100000);
  for (int i = 0; i < 100000; ++i) points.push_back({i * 0.01, static_cast<double>(i % 13)});
  LineChart chart("long", "x", "y");
  chart.AddSeries("s", points, true);
  std::string svg = chart.Render(600, 300);
  CHECK(Count(svg, ",") < 2 * 600 + 10);
  CHECK(svg.size() < 40000);
}

TEST_CASE("a Gantt chart draws headers, rows and bars and caps the rows", "[report]") {
  Gantt gantt("runs", 100);
  gantt.AddHeader("gpu0", 0);
  size_t row = gantt.AddRow("1g.5gb@0", 1);
  gantt.AddBar(row, 10, 50, "#ff0000", "pod-1 <x>");
  for (int i = 0; i < 5; ++i) gantt.AddRow("r" + std::to_string(i), 1);
  gantt.AddLegendEntry("Job/a", "#ff0000");
  CHECK(gantt.row_count() == 7);
  std::string svg = gantt.Render(800, 4);
  CHECK(svg.find(">gpu0</text>") != std::string::npos);
  CHECK(svg.find(">1g.5gb@0</text>") != std::string::npos);
  CHECK(svg.find("<title>pod-1 &lt;x&gt;</title>") != std::string::npos);
  CHECK(svg.find(">3 more rows not shown</text>") != std::string::npos);
  CHECK(svg.find(">r2</text>") == std::string::npos);
  CHECK(svg.find(">Job/a</text>") != std::string::npos);
}

TEST_CASE("a series drawn exactly over an earlier one is dashed and says which it repeats",
          "[report]") {
  LineChart chart("alloc", "time (s)", "fraction");
  chart.AddSeries("best-fit", {{0, 0}, {10, 0.5}, {20, 1}}, true);
  chart.AddSeries("first-fit", {{0, 0}, {10, 0.5}, {20, 1}}, true);
  chart.AddSeries("fgd", {{0, 0}, {10, 0.25}}, true);
  chart.AddSeries("spread", {{0, 0}, {10, 0.5}, {20, 1}}, true);
  std::string svg = chart.Render(600, 300);
  CHECK(Count(svg, "<polyline") == 4);
  CHECK(Count(svg, "stroke-dasharray") == 4);  // two polylines, two legend samples
  CHECK(svg.find(">first-fit (same as best-fit)</text>") != std::string::npos);
  CHECK(svg.find(">spread (same as best-fit)</text>") != std::string::npos);
  CHECK(svg.find(">fgd</text>") != std::string::npos);
  // The two repeats are dashed differently, so each stays visible over the other.
  CHECK(svg.find("stroke-dasharray=\"7 5\"") != std::string::npos);
  CHECK(svg.find("stroke-dasharray=\"2 4\"") != std::string::npos);
}

// Euclidean distance of two #rrggbb colours in RGB, 0..441.
double ColorDistance(const std::string& a, const std::string& b) {
  double sum = 0;
  for (int i = 0; i < 3; ++i) {
    double d = std::stoi(a.substr(1 + 2 * i, 2), nullptr, 16) -
               std::stoi(b.substr(1 + 2 * i, 2), nullptr, 16);
    sum += d * d;
  }
  return std::sqrt(sum);
}

double MinDistance(const std::vector<std::string>& colors) {
  double min = 1e9;
  for (size_t i = 0; i < colors.size(); ++i) {
    for (size_t j = 0; j < i; ++j) min = std::min(min, ColorDistance(colors[i], colors[j]));
  }
  return min;
}

TEST_CASE("N categories get N distinct colours, far apart while there are few", "[report]") {
  const std::vector<std::string> thirty = DistinctColors(30);
  REQUIRE(thirty.size() == 30);
  CHECK(std::set<std::string>(thirty.begin(), thirty.end()).size() == 30);
  CHECK(MinDistance(thirty) > 40);
  // Hashing 30 owner names, as the Gantt chart did, puts two of them close together.
  std::vector<std::string> hashed;
  for (int i = 0; i < 30; ++i) hashed.push_back(KeyColor("Job/train-" + std::to_string(i)));
  CHECK(MinDistance(hashed) < 40);
  for (size_t n : {1, 20, 21, 100, 2000}) {
    const std::vector<std::string> colors = DistinctColors(n);
    CHECK(std::set<std::string>(colors.begin(), colors.end()).size() == n);
  }
  CHECK(DistinctColors(5) == std::vector<std::string>(thirty.begin(), thirty.begin() + 5));
}

TEST_CASE("time axes read in seconds up to 3 hours, then hours up to 3 days, then days",
          "[report]") {
  CHECK(TimeUnitFor(3600).axis_label == "time (s)");
  CHECK(TimeUnitFor(3 * 3600).seconds == 1);
  CHECK(TimeUnitFor(39 * 3600).axis_label == "time (h)");
  CHECK(TimeUnitFor(39 * 3600).seconds == 3600);
  CHECK(TimeUnitFor(30 * 86400).axis_label == "time (d)");
  CHECK(TimeUnitFor(30 * 86400).seconds == 86400);
  Gantt gantt("runs", 2 * 86400);  // two days: ticks in hours
  gantt.AddBar(gantt.AddRow("gpu0", 0), 0, 86400, "#ff0000", "pod");
  std::string svg = gantt.Render(800, 10);
  CHECK(svg.find(">time (h)</text>") != std::string::npos);
  CHECK(svg.find(">40</text>") != std::string::npos);
  CHECK(svg.find(">172800</text>") == std::string::npos);
}

TEST_CASE("a log x axis ticks whole decades and keeps the short values apart", "[report]") {
  LineChart chart("cdf", "latency (s)", "fraction");
  chart.SetLogX();
  chart.AddSeries("a", {{0, 0}, {1, 0.3}, {2, 0.6}, {5, 0.9}, {9000, 1}}, true);
  std::string svg = chart.Render(600, 300);
  for (const char* tick :
       {">1</text>", ">10</text>", ">100</text>", ">1000</text>", ">10000</text>"}) {
    CHECK(svg.find(tick) != std::string::npos);
  }
  CHECK(svg.find(">2000</text>") == std::string::npos);  // no linear ticks
  // x = 1, 2 and 5 are a third of the plot apart from each other, not squeezed together:
  // the plot spans 4 decades over 526 px (58 to 584), so 1 -> 58, 2 -> 97.6, 5 -> 149.9.
  CHECK(svg.find(" 97.6,") != std::string::npos);
  CHECK(svg.find(" 149.9,") != std::string::npos);
}

}  // namespace
}  // namespace migsim::svg
