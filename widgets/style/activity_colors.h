#pragma once
// One palette for what a device spends its time on and what its memory holds, shared by every view that draws
// them (breakdown, memory, timeline) so that TP is the same orange everywhere. The colours are Tableau 10's, which
// stay apart for the common colour-vision deficiencies and read on light and dark backgrounds alike.

#include "analysis/breakdown.h"
#include "common/memory_category.h"
#include "common/task_kind.h"
#include "oracle/paradl_oracle.h"
#include "topology/parallel_layout.h"

#include <QColor>

namespace parasight::gui {

[[nodiscard]] QColor compute_color();
[[nodiscard]] QColor exposed_comm_color(CommGroup group);
[[nodiscard]] QColor exposed_local_memory_color();
[[nodiscard]] QColor exposed_remote_memory_color();
[[nodiscard]] QColor bubble_color();
[[nodiscard]] QColor idle_color();
[[nodiscard]] QColor memory_category_color(MemoryCategory category);
// What a timeline event is: forward, backward and deferred weight gradients (W) in blues, recompute red, optimizer
// brown, communication in its group's colour (as exposed_comm_color).
[[nodiscard]] QColor task_kind_color(TaskKind kind);
// A parallel axis's groups, as its communication: tp orange, cp pink, ep purple, dp yellow, pp green.
[[nodiscard]] QColor parallel_axis_color(ParallelAxis axis);
// Black or white, whichever reads on `background`.
[[nodiscard]] QColor text_color_on(const QColor& background);
// The oracle's parallel strategies (docs/oracle.md): serial grey, data blue, spatial orange, layer green, filter red,
// channel purple, data + filter teal, data + spatial brown, data + layer pink.
[[nodiscard]] QColor oracle_strategy_color(OracleStrategy strategy);
// Drawn where memory passes the device's capacity.
[[nodiscard]] QColor over_capacity_color();

}  // namespace parasight::gui
