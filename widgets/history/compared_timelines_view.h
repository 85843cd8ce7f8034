#pragma once
// Two runs' timelines on one time axis (history/compared_runs_job.h): a row per pair of matched devices — run A's
// device above, run B's below, each with a lane per stream (compute, feature communication, gradient
// communication) — and every event tinted by how much it changed from A to B (style/change_colors.h: blue shorter,
// grey the same, red longer); an event only one run has is hatched. The legend says so at the top, with the time
// axis. The wheel zooms at the pointer (Shift+wheel scrolls the rows), dragging pans, a double-click or 0 shows the
// whole; hovering an event says what it is and its duration in both runs. A repaint costs about the pixels on
// screen: each lane is searched for the time shown, and events narrower than a pixel merge.

#include "analysis/timeline_comparison.h"
#include "style/time_scale.h"

#include <QAbstractScrollArea>

#include <memory>
#include <optional>

namespace parasight::gui {

struct ComparedRuns;

class ComparedTimelinesView : public QAbstractScrollArea {
    Q_OBJECT

public:
    static constexpr int header_width_px = 160;
    static constexpr int top_px = 46;          // the legend, then the time axis
    static constexpr int stream_height_px = 7;  // a stream's lane
    static constexpr int run_gap_px = 2;        // between A's device and B's
    static constexpr int row_gap_px = 10;       // between rows

    explicit ComparedTimelinesView(QWidget* parent = nullptr);

    void showComparison(std::shared_ptr<const ComparedRuns> compared);
    void showMessage(const QString& message);
    [[nodiscard]] const std::shared_ptr<const ComparedRuns>& compared() const noexcept { return compared_; }
    [[nodiscard]] const TimeScale& scale() const noexcept { return scale_; }
    void fit();
    // Zooms by `factor` (> 1 in) keeping the time at viewport pixel `x_px` where it is.
    void zoomAt(double x_px, double factor);

    // Where on the viewport an event of run A (`run_b` false) or B is drawn: its box, empty when not on screen.
    [[nodiscard]] QRect eventRect(bool run_b, EventId id) const;
    // The colour an event is drawn in (its change), none for an event only its run has (hatched).
    [[nodiscard]] std::optional<QColor> eventColor(bool run_b, EventId id) const;
    // The event under a viewport point: which run, which event.
    [[nodiscard]] std::optional<std::pair<bool, EventId>> eventAt(const QPoint& at) const;
    // What hovering it says.
    [[nodiscard]] QString eventToolTip(bool run_b, EventId id) const;

    [[nodiscard]] QSize sizeHint() const override { return {900, 420}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool viewportEvent(QEvent* event) override;

private:
    [[nodiscard]] double lanesWidth() const;
    [[nodiscard]] int rowHeight() const;
    // The top of run A's (or B's) device in row `row`, on the viewport.
    [[nodiscard]] int deviceTop(std::size_t row, bool run_b) const;
    void updateScrollBar();

    std::shared_ptr<const ComparedRuns> compared_;
    QString message_;
    TimeScale scale_;
    std::optional<QPoint> drag_from_;
};

}  // namespace parasight::gui
