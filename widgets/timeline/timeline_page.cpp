#include "timeline/timeline_page.h"

#include "timeline/event_details.h"
#include "timeline/timeline_overview.h"
#include "timeline/timeline_view.h"

#include <QVBoxLayout>

namespace parasight::gui {

TimelinePage::TimelinePage(QWidget* parent) : QSplitter(Qt::Vertical, parent) {
    auto* chart = new QWidget(this);
    overview_ = new TimelineOverview(chart);
    overview_->setLeftMargin(TimelineView::header_width_px);
    view_ = new TimelineView(chart);
    auto* layout = new QVBoxLayout(chart);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(overview_);
    layout->addWidget(view_, 1);
    details_ = new EventDetails(this);
    addWidget(chart);
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
    connect(view_, &TimelineView::rangeChanged, overview_, &TimelineOverview::showRange);
    connect(overview_, &TimelineOverview::rangeRequested, view_, &TimelineView::showRange);
    connect(details_, &EventDetails::eventChosen, this,
            [this](qint64 event) { view_->select(static_cast<EventId>(event), true); });
}

void TimelinePage::showTimeline(std::shared_ptr<const TimelineLevels> levels) {
    levels_ = levels;
    overview_->showTimeline(levels);
    view_->showTimeline(std::move(levels));
}

void TimelinePage::showMessage(const QString& message) {
    levels_.reset();
    overview_->showTimeline(nullptr);
    view_->showMessage(message);
}

}  // namespace parasight::gui
