#include "timeline/timeline_page.h"

#include "timeline/event_details.h"
#include "timeline/timeline_view.h"

namespace parasight::gui {

TimelinePage::TimelinePage(QWidget* parent) : QSplitter(Qt::Vertical, parent) {
    view_ = new TimelineView(this);
    details_ = new EventDetails(this);
    addWidget(view_);
    addWidget(details_);
    setStretchFactor(0, 4);
    setStretchFactor(1, 1);
    setChildrenCollapsible(false);
    details_->hide();
    connect(view_, &TimelineView::selectionChanged, this, [this](qint64 event) {
        details_->setVisible(event >= 0 && levels_ != nullptr);
        if (event >= 0 && levels_) {
            details_->showDetails(std::shared_ptr<const Timeline>(levels_, &levels_->timeline()),
                                static_cast<EventId>(event));
        }
    });
    connect(details_, &EventDetails::eventChosen, this,
            [this](qint64 event) { view_->select(static_cast<EventId>(event), true); });
}

void TimelinePage::showTimeline(std::shared_ptr<const TimelineLevels> levels) {
    levels_ = levels;
    view_->showTimeline(std::move(levels));
}

void TimelinePage::showMessage(const QString& message) {
    levels_.reset();
    view_->showMessage(message);
}

}  // namespace parasight::gui
