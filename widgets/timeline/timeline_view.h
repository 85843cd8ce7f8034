#pragma once
// The Timeline tab's view: a Gantt chart of one simulated iteration, a row per simulated device with a lane per
// stream, grouped by pipeline stage, identical devices shown once and grouped by node when listed (timeline_rows.h);
// events coloured by kind (the legend names the kinds the iteration has). It draws through TimelineLevels, so a
// repaint costs about the boxes on screen whatever the iteration holds: events narrower than two pixels merge into
// one box that says how many it holds. A legend and the time axis stay at the top, the row headers at the left.
//
// A click on a band folds its rows away, or unfolds them; a click on the header of a row standing for identical
// devices lists them. Mouse and keys as in Perfetto: the wheel zooms at the pointer (Shift+wheel scrolls the rows),
// dragging pans,
// W / S or + / − zoom, A / D pan, 0 fits the whole iteration, a double-click zooms to an event; hovering an event
// shows what it is (operation, layer, micro-batch, stream, start, duration, bytes, FLOPs, achieved rate). Clicking
// an event selects it: it is outlined, and so are the same collective on its peers, what it waited for and what
// waited for it on other devices (event_relations.h), and the critical path into it is underlined. Shift+drag selects a stretch of time: it is shaded, its length
// shown on the axis, and rangeSelected says what to summarize.

#include "analysis/event_relations.h"
#include "analysis/timeline_levels.h"
#include "style/time_scale.h"
#include "timeline/timeline_geometry.h"
#include "timeline/timeline_rows.h"

#include "style/axis_scale.h"

#include <QAbstractScrollArea>

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace parasight::gui {

class TimelineView : public QAbstractScrollArea {
    Q_OBJECT

public:
    static constexpr int header_width_px = timeline_metrics::header_width_px;
    static constexpr int lane_name_width_px = timeline_metrics::lane_name_width_px;
    static constexpr int legend_height_px = timeline_metrics::legend_height_px;
    static constexpr int axis_height_px = timeline_metrics::axis_height_px;
    static constexpr int lane_height_px = timeline_metrics::lane_height_px;
    static constexpr int band_height_px = timeline_metrics::band_height_px;
    static constexpr double min_box_width_px = timeline_metrics::min_box_width_px;
    static constexpr int memory_lane_height_px = timeline_metrics::memory_lane_height_px;

    explicit TimelineView(QWidget* parent = nullptr);

    // The sizes it draws with: the constants above at the application's font, larger with a larger one
    // (presentation mode); sizesChanged says when they change.
    [[nodiscard]] const TimelineSizes& sizes() const noexcept { return sizes_; }

    // Shows a simulated iteration (null: nothing), the whole of it, with its devices' classes (built with it);
    // `capacity_bytes` is a device's memory, the line the memory lanes are drawn against.
    void showTimeline(std::shared_ptr<const TimelineLevels> levels, std::shared_ptr<const IdenticalDevices> classes,
                      double capacity_bytes = 0.0);
    // A memory lane under each device's streams: allocated bytes over time against the capacity, red above it with
    // a dot where it first passes it (out of memory). Hidden at first.
    void setMemoryLanesShown(bool shown);
    [[nodiscard]] bool memoryLanesShown() const noexcept { return memory_lanes_shown_; }
    // Says why there is nothing to show.
    void showMessage(const QString& message);
    // What the view says instead of a timeline; empty while it draws one.
    [[nodiscard]] const QString& message() const noexcept { return message_; }

    [[nodiscard]] const TimeScale& scale() const noexcept { return scale_; }
    [[nodiscard]] const TimelineRowLayout& rows() const noexcept { return rows_; }
    // The box under a point of the viewport, if any.
    [[nodiscard]] std::optional<LaneBox> boxAt(const QPoint& point) const;
    // Where the middle of `event` is drawn in the viewport, if its row is laid out.
    [[nodiscard]] std::optional<QPoint> pointOf(EventId event) const;
    // What a hover over `box` says.
    [[nodiscard]] QString describe(const LaneBox& box) const;

    // Selects an event (none: clears), outlining it and its relations; `reveal` scrolls and pans it into view.
    void select(std::optional<EventId> event, bool reveal);
    [[nodiscard]] std::optional<EventId> selected() const noexcept { return selected_; }
    // How the selection relates to other events (event_relations.h): those outlined with it and the critical path
    // underlined; empty without a selection.
    [[nodiscard]] const EventRelations& relations() const noexcept { return relations_; }

    // Unfolds what hides `device`'s row (an index into Timeline::devices()), scrolls it to the top under its bands
    // and marks its header.
    void revealDevice(std::size_t device);
    [[nodiscard]] std::optional<std::size_t> revealedDevice() const noexcept { return revealed_device_; }
    // Where `device`'s row and a stretch of time are drawn in the viewport (for the spotlight), if they are.
    [[nodiscard]] std::optional<QRect> deviceRowRect(std::size_t device) const;
    [[nodiscard]] std::optional<QRect> rangeRect(double from_s, double to_s) const;
    // The simulated device (an index into Timeline::devices()) that is NPU `npu`, if one is.
    [[nodiscard]] std::optional<std::size_t> deviceOfNpu(std::int64_t npu) const;

    // What a click on a row's header does: folds or unfolds its group (TimelineFolding::toggle).
    void toggleGroup(const TimelineRow& row);
    // Lists every device of every class of identical devices, or folds each class into one row again (the row
    // headers' context menu does too).
    void setEveryClassUnfolded(bool unfolded);
    // What the row headers say on hover: how to fold, what a row of identical devices stands for.
    [[nodiscard]] QString headerToolTip(const TimelineRow& row) const;
    // The stretch selected with Shift+drag, if any.
    [[nodiscard]] std::optional<std::pair<double, double>> selectedRange() const noexcept { return range_; }
    void selectRange(double from_s, double to_s);

    // A lesson's playhead at `time_s` (none: hidden): a line across the lanes, memory lanes drawn up to it; ← and →
    // ask to step it (playheadStepRequested).
    void setPlayhead(std::optional<double> time_s);
    [[nodiscard]] std::optional<double> playhead() const noexcept { return playhead_s_; }

    void zoomAt(double x, double factor);  // x in the viewport
    void fit();
    // Shows [from_s, to_s] across the width (kept inside the iteration).
    void showRange(double from_s, double to_s);
    void zoomToEvent(EventId event);

Q_SIGNALS:
    // The selection changed: an event id, or -1 for none.
    void selectionChanged(qint64 event);
    // The time range shown changed (a zoom, a pan, a resize, a new timeline).
    void rangeChanged(double from_s, double to_s);
    // A stretch of time was selected with Shift+drag; cleared: from_s == to_s.
    void rangeSelected(double from_s, double to_s);
    // ← (-1) or → (+1) with the playhead shown.
    void playheadStepRequested(int direction);
    // The view's font changed its sizes (the row headers wider).
    void sizesChanged();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;
    void changeEvent(QEvent* event) override;

private:
    [[nodiscard]] int lanesTop() const { return sizes_.legend_height_px + sizes_.axis_height_px; }
    // The sizes for the view's font (timeline_geometry.h), kept when it changes.
    void updateSizes();
    // Where things are drawn now (timeline_geometry.h).
    [[nodiscard]] TimelineGeometry geometry() const;
    [[nodiscard]] double lanesWidth() const;
    void updateScrollBars();
    // Repaints, and says so when the range shown has changed.
    void refresh();
    void layoutRows();
    // Unfolds and lays out the rows so that `device` has its own; false when it has none.
    bool unfoldTo(std::size_t device);
    // The row at a point of the viewport, if any.
    [[nodiscard]] const TimelineRow* headerRowAt(const QPoint& point) const;
    [[nodiscard]] std::optional<QRectF> rectOf(EventId event) const;

    std::shared_ptr<const TimelineLevels> levels_;
    std::shared_ptr<const IdenticalDevices> classes_;
    TimelineFolding folding_;
    TimelineRowLayout rows_;
    TimeScale scale_;
    QString message_;
    double emitted_start_s_ = -1.0;
    double emitted_end_s_ = -1.0;
    std::optional<EventId> selected_;
    std::optional<std::size_t> revealed_device_;
    double capacity_bytes_ = 0.0;
    MemoryAxisTop memory_top_;  // every memory lane's scale
    std::uint16_t present_kinds_ = 0;  // LaneBox::kinds of every event: the legend names these
    std::optional<std::pair<double, double>> range_;
    std::optional<double> playhead_s_;
    bool selecting_range_ = false;
    double range_anchor_s_ = 0.0;
    bool memory_lanes_shown_ = false;
    EventRelations relations_;
    QPoint drag_from_;
    bool dragging_ = false;
    bool dragged_ = false;
    TimelineSizes sizes_;
};

}  // namespace parasight::gui
