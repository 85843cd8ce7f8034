#pragma once
// The Timeline tab: a tool row (Export: the visible range as PNG or SVG, the run as a Chrome trace), the overview
// strip of the whole iteration over the Gantt view, and below them the details of the event selected (shown once
// one is).

#include "analysis/timeline_levels.h"

#include <QSplitter>

#include <functional>
#include <memory>
#include <optional>

namespace parasight::gui {

class EventDetails;
class TimelineOverview;
class TimelineView;

class TimelinePage : public QSplitter {
    Q_OBJECT

public:
    explicit TimelinePage(QWidget* parent = nullptr);

    [[nodiscard]] TimelineView* view() const noexcept { return view_; }
    [[nodiscard]] EventDetails* details() const noexcept { return details_; }
    [[nodiscard]] TimelineOverview* overview() const noexcept { return overview_; }

    // `capacity_bytes`: a device's memory, for the memory lanes.
    void showTimeline(std::shared_ptr<const TimelineLevels> levels, double capacity_bytes = 0.0);
    void showMessage(const QString& message);

private:
    // Asks for a file and writes it with `write`, saying why if it cannot.
    void exportWith(const QString& title, const QString& filter, const QString& suffix,
                    const std::function<std::optional<QString>(const QString&)>& write);

    TimelineOverview* overview_ = nullptr;
    TimelineView* view_ = nullptr;
    EventDetails* details_ = nullptr;
    std::shared_ptr<const TimelineLevels> levels_;
};

}  // namespace parasight::gui
