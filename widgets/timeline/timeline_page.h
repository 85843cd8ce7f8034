#pragma once
// The Timeline tab: the Gantt view over the details of the event selected in it (shown once one is).

#include "analysis/timeline_levels.h"

#include <QSplitter>

#include <memory>

namespace parasight::gui {

class EventDetails;
class TimelineView;

class TimelinePage : public QSplitter {
    Q_OBJECT

public:
    explicit TimelinePage(QWidget* parent = nullptr);

    [[nodiscard]] TimelineView* view() const noexcept { return view_; }
    [[nodiscard]] EventDetails* details() const noexcept { return details_; }

    void showTimeline(std::shared_ptr<const TimelineLevels> levels);
    void showMessage(const QString& message);

private:
    TimelineView* view_ = nullptr;
    EventDetails* details_ = nullptr;
    std::shared_ptr<const TimelineLevels> levels_;
};

}  // namespace parasight::gui
