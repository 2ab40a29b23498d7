#pragma once
// Small SVG building blocks for the HTML report: escaping, number formatting, axis
// ticks, step lines with downsampling, a line chart and a Gantt chart. Everything
// renders to a self-contained <svg> string (no scripts, no external resources);
// coordinates are rounded to 0.1 px to keep the markup small.

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace migsim::svg {

struct Point {
  double x = 0, y = 0;
  bool operator==(const Point&) const = default;
};

// Escapes & < > " ' for text content and attribute values alike.
std::string Escape(std::string_view text);

// `v` rounded to 0.1, without a trailing ".0" and without "-0": "12.3", "4", "-0.5".
std::string Coord(double v);

// "Nice" tick positions (1, 2 or 5 times a power of ten apart) within [lo, hi], at
// most about `max_ticks` of them. An empty or reversed range is treated as [lo, lo + 1].
std::vector<double> Ticks(double lo, double hi, int max_ticks);
// The spacing Ticks() uses for the same arguments.
double TickStep(double lo, double hi, int max_ticks);
// A tick label with as many decimals as `step` needs: (0.2, 0.2) -> "0.2", (40, 20) -> "40".
std::string TickLabel(double v, double step);

// The vertices of a step line through samples sorted by x, each value holding until
// the next sample: (x0,y0), (x1,y0), (x1,y1), (x2,y1), (x2,y2), ...
std::vector<Point> StepVertices(std::span<const Point> samples);

// At most about 2 * columns + 2 of `points` (sorted by x), in their order: the first and
// the last, and in each of `columns` equal slices of [x_lo, x_hi] the lowest and the
// highest. A line through them looks the same at one pixel per column.
std::vector<Point> Downsample(std::span<const Point> points, double x_lo, double x_hi, int columns);

// A categorical colour (#rrggbb) for series `index`.
std::string SeriesColor(size_t index);
// A colour (#rrggbb) that depends only on `key` (a stable hash, same on every platform).
std::string KeyColor(std::string_view key);
// `n` colours (#rrggbb), all different, for n categories in their order: SeriesColor's
// palette first, then each next the farthest in RGB from those taken (the first n of
// DistinctColors(m) are DistinctColors(n)).
std::vector<std::string> DistinctColors(size_t n);

// The unit a time axis spanning `span_s` seconds reads best in: seconds up to 3 hours,
// hours up to 3 days, days beyond.
struct TimeUnit {
  double seconds = 1;                   // one unit, in seconds
  std::string axis_label = "time (s)";  // "time (s)", "time (h)", "time (d)"
};
TimeUnit TimeUnitFor(double span_s);

// Several series over a shared pair of axes, with a title and a legend.
class LineChart {
 public:
  LineChart(std::string title, std::string x_label, std::string y_label);

  // Fixes the y axis; otherwise it spans 0 .. the series' maximum (rounded up to a tick).
  void SetYRange(double lo, double hi);
  // `points` sorted by x. `step`: the value holds until the next point.
  void AddSeries(std::string name, std::vector<Point> points, bool step);
  // A logarithmic x axis over whole decades (for a long tail: at most 6, from the smallest
  // positive x's); x below them (0) is drawn at its left edge.
  void SetLogX() { log_x_ = true; }

  // A series drawn exactly over an earlier one is dashed, so the earlier shows through its
  // gaps, and its legend entry says "(same as <earlier>)".

  std::string Render(int width, int height) const;

 private:
  struct Series {
    std::string name;
    std::vector<Point> points;
    bool step = false;
  };
  struct Frame;  // the plot area and the data ranges, in svg_chart.cc

  Frame MakeFrame(int width, int height) const;
  std::string RenderAxes(const Frame& f) const;
  std::string RenderXAxis(const Frame& f) const;
  // Per series: the first earlier series with the same points (and steps), or -1.
  std::vector<int> SameAs() const;
  // Per series: its legend entry, "(same as <earlier>)" added to a repeated series'.
  std::vector<std::string> LegendLabels() const;
  std::string RenderSeries(const Frame& f) const;
  std::string RenderLegend(const Frame& f) const;

  std::string title_, x_label_, y_label_;
  bool fixed_y_ = false, log_x_ = false;
  double y_lo_ = 0, y_hi_ = 1;
  std::vector<Series> series_;
};

// Horizontal bars on labelled rows over a time axis [0, end]. Rows may be headers
// (a bold label without bars, e.g. a GPU above its MIG slices) and are indented by
// `level`. Renders at most `max_rows` rows and says how many more there were.
class Gantt {
 public:
  Gantt(std::string title, double end);

  // Returns the row's index for AddBar().
  size_t AddRow(std::string label, int level);
  void AddHeader(std::string label, int level);
  // REQUIRES: `row` was returned by AddRow(). `tooltip` shows on hover.
  void AddBar(size_t row, double from, double to, std::string color, std::string tooltip);
  // A colour key shown under the title.
  void AddLegendEntry(std::string label, std::string color);

  size_t row_count() const { return rows_.size(); }
  std::string Render(int width, size_t max_rows) const;

 private:
  struct Bar {
    double from, to;
    std::string color, tooltip;
  };
  struct Row {
    std::string label;
    int level = 0;
    bool header = false;
    std::vector<Bar> bars;
  };

  std::string RenderAxis(double top, double bottom, int width) const;
  std::string RenderRow(const Row& row, double y, int width) const;
  std::string RenderLegend(int width, double y) const;
  int LegendHeight(int width) const;

  std::string title_;
  double end_;
  std::vector<Row> rows_;
  std::vector<std::pair<std::string, std::string>> legend_;
};

}  // namespace migsim::svg
