#pragma once
// The pieces svg_chart.cc and svg_gantt.cc draw their charts with (not for other users:
// svg_chart.h is the interface): text, lines, the <svg> element, legends and colours.

#include <string>
#include <string_view>
#include <vector>

#include "sim/report/svg_chart.h"

namespace migsim::svg {

inline constexpr double kCharWidth = 6.5;  // of the 11 px sans-serif text, roughly
inline constexpr double kLegendLine = 16;

struct LegendEntry {
  std::string label;
  std::string color;
  std::string dash;  // a stroke-dasharray: the entry shows a dashed line sample, not a box
};
using LegendEntries = std::vector<LegendEntry>;

std::string Text(double x, double y, std::string_view text, std::string_view attrs = "");
std::string Line(double x1, double y1, double x2, double y2, std::string_view cls);
// The <svg> element's opening, its style and its title.
std::string SvgOpen(int width, int height, std::string_view title);

// How many lines the legend takes when its entries flow left to right from x0, wrapping at
// x_max, and its markup with the first line's baseline at y0.
int LegendLines(const LegendEntries& entries, double x0, double x_max);
std::string LegendSvg(const LegendEntries& entries, double x0, double y0, double x_max);

// At most `max_chars` bytes of `text`, cut on a UTF-8 character boundary, with "..." when cut.
std::string Shorten(const std::string& text, size_t max_chars);

// CSS's hsl() -> rgb conversion; hue in degrees, saturation and lightness in [0, 1].
std::string HslColor(double hue, double sat, double light);

}  // namespace migsim::svg
