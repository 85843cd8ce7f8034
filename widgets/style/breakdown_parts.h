#pragma once
// The parts of an iteration's time breakdown (analysis/breakdown.h) as every view shows them, in one order: compute,
// exposed local memory, exposed TP / CP / EP / PP / DP, exposed remote memory, bubble, idle — with their names, what
// they mean, and their colours
// (style/activity_colors.h), so that the Breakdown tab's columns and a heatmap cell's glyph say the same thing.

#include "analysis/breakdown.h"

#include <QColor>
#include <QString>

#include <array>

namespace parasight::gui {

inline constexpr int breakdown_part_count = 10;

// The breakdown's seconds, part by part in the order above; they sum to the iteration.
[[nodiscard]] std::array<double, breakdown_part_count> breakdown_parts_s(const TimeBreakdown& breakdown);
// "Compute", "Local memory exposed", "TP exposed", …, "Remote memory exposed", "Bubble", "Idle".
[[nodiscard]] QString breakdown_part_name(int part);
// What the part counts, a sentence.
[[nodiscard]] QString breakdown_part_meaning(int part);
[[nodiscard]] QColor breakdown_part_color(int part);

}  // namespace parasight::gui
