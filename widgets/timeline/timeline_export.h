#pragma once
// The timeline's exports: what the view shows, as PNG (at twice the screen's resolution, for slides) or SVG
// (vectors, for papers), and the whole run as Chrome trace JSON for Perfetto (the core's writer, as
// `parasight-cli simulate --trace` writes it). Each file is written whole or not at all (core io/atomic_output.h);
// the result is the reason it could not be, or nothing.

#include "analysis/timeline.h"

#include <QString>

#include <optional>

namespace parasight::gui {

class TimelineView;

[[nodiscard]] std::optional<QString> export_timeline_png(TimelineView& view, const QString& path);
[[nodiscard]] std::optional<QString> export_timeline_svg(TimelineView& view, const QString& path);
[[nodiscard]] std::optional<QString> export_chrome_trace(const Timeline& timeline, const QString& path);

}  // namespace parasight::gui
