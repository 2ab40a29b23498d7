#pragma once
// A chart of means with their spread, for studies over seeds: one line per series through
// its means, its interval (a 95 % confidence interval, or the min-max range) drawn as a
// translucent band, or as error bars on a categorical x axis; optional horizontal
// thresholds (a plan's objectives) and marked points (its recommendation). Self-contained
// SVG, as svg_chart.h's.

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace migsim::svg {

struct IntervalPoint {
  double x = 0;
  double mean = 0;
  double low = 0, high = 0;  // the spread; low == high == mean when there is none
};

class IntervalChart {
 public:
  IntervalChart(std::string title, std::string x_label, std::string y_label);

  // Names the x positions 0, 1, ... (a categorical axis: a variant, a non-numeric axis
  // value); the spread is then drawn as error bars.
  void SetCategories(std::vector<std::string> labels);
  // `points` sorted by x.
  void AddSeries(std::string name, std::vector<IntervalPoint> points);
  // A dashed horizontal line at y, labelled.
  void AddThreshold(std::string label, double y);
  // A ringed point at (x, y), labelled (the recommendation).
  void AddMark(std::string label, double x, double y);

  std::string Render(int width, int height) const;

 private:
  struct Series {
    std::string name;
    std::vector<IntervalPoint> points;
  };
  struct Frame;
  Frame MakeFrame(int width, int height) const;
  std::string RenderAxes(const Frame& f) const;
  std::string RenderSeries(const Frame& f) const;
  std::string RenderOverlays(const Frame& f) const;

  std::string title_, x_label_, y_label_;
  std::vector<std::string> categories_;
  std::vector<Series> series_;
  std::vector<std::pair<std::string, double>> thresholds_;
  struct Mark {
    std::string label;
    double x, y;
  };
  std::vector<Mark> marks_;
};

}  // namespace migsim::svg
