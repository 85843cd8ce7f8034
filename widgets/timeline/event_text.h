#pragma once
// What the timeline says about an event or a merged box: in a tooltip and in the details panel alike.

#include "analysis/timeline_levels.h"

#include <QString>

namespace parasight::gui {

// "Forward", "Backward", "Recompute", "Optimizer", "TP", … as the legend names kinds.
[[nodiscard]] QString task_kind_label(TaskKind kind);
// "attention backward · micro-batch 3 on NPU 64": a line naming an event.
[[nodiscard]] QString event_name(const Timeline& timeline, EventId id);
// Rich text: the operation, layer, micro-batch, stream, start, duration, bytes, FLOPs and the rate achieved; for a
// merged box, how many events it holds and when.
[[nodiscard]] QString box_description(const Timeline& timeline, const LaneBox& box, double min_width_px);

}  // namespace parasight::gui
