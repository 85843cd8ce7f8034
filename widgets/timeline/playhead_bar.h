#pragma once
// The Timeline tab's playhead, for stepping through a schedule with a class (analysis/playhead.h): shown or not, ◀ and
// ▶ (or ← and → in the chart) to the previous and next moment a computation starts or ends, Play and Pause at 0.25×
// to 4× (1×: a stop every 0.4 s), the time, and what each simulated device is doing then — its operation and
// micro-batch, the memory it holds.

#include "analysis/playhead.h"

#include <QTimer>
#include <QWidget>

#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;

namespace parasight::gui {

class PlayheadBar : public QWidget {
    Q_OBJECT

public:
    static constexpr int stop_interval_ms = 400;  // at 1×

    explicit PlayheadBar(QWidget* parent = nullptr);

    // The iteration to step through (none: nothing to step; the playhead hides).
    void setTimeline(std::shared_ptr<const Timeline> timeline);
    // Shows the playhead at the start of the iteration, or hides it.
    void setShown(bool shown);
    [[nodiscard]] bool isShown() const noexcept { return time_s_.has_value(); }
    [[nodiscard]] std::optional<double> time() const noexcept { return time_s_; }
    // To the next (+1) or previous (-1) stop; false at the end (or start).
    bool step(int direction);
    void setPlaying(bool playing);
    [[nodiscard]] bool isPlaying() const noexcept { return timer_.isActive(); }
    // 0.25 to 4.
    void setSpeed(double speed);
    // What the devices are doing at the playhead, a line each.
    [[nodiscard]] QString stateText() const;

Q_SIGNALS:
    // The playhead moved, appeared (a time) or hid (none).
    void moved(std::optional<double> time_s);

private:
    void moveTo(std::optional<double> time_s);

    std::shared_ptr<const Timeline> timeline_;
    std::unique_ptr<ScheduleSteps> steps_;  // made when the playhead is first shown for the timeline
    std::optional<double> time_s_;
    QTimer timer_;
    QCheckBox* shown_ = nullptr;
    QPushButton* back_ = nullptr;
    QPushButton* forward_ = nullptr;
    QPushButton* play_ = nullptr;
    QComboBox* speed_ = nullptr;
    QLabel* state_ = nullptr;
};

}  // namespace parasight::gui
