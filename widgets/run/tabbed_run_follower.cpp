#include "run/tabbed_run_follower.h"

#include <QMetaObject>
#include <QTabWidget>

#include <algorithm>

namespace parasight::gui {

TabbedRunFollower::TabbedRunFollower(const RunSession& session, QTabWidget& tabs, QObject* parent)
    : QObject(parent), session_(session), tabs_(tabs) {
    connect(&session, &RunSession::changed, this, &TabbedRunFollower::onChanged);
    connect(&tabs, &QTabWidget::currentChanged, this, [this] { catchUp(tabs_.currentWidget()); });
}

void TabbedRunFollower::follow(QWidget* page, Show show) {
    pages_.push_back(Page{page, std::move(show), 0});
    if (generation_ > 0) queueNext();
}

void TabbedRunFollower::catchUp(QWidget* page) {
    const auto found = std::find_if(pages_.begin(), pages_.end(), [page](const Page& p) { return p.widget == page; });
    if (found == pages_.end() || found->held == generation_) return;
    found->held = generation_;
    found->show(session_.state());
}

bool TabbedRunFollower::isCaughtUp() const {
    return std::all_of(pages_.begin(), pages_.end(), [this](const Page& page) { return page.held == generation_; });
}

void TabbedRunFollower::onChanged() {
    ++generation_;
    catchUp(tabs_.currentWidget());
    queueNext();
}

void TabbedRunFollower::queueNext() {
    if (next_queued_) return;
    next_queued_ = true;
    QMetaObject::invokeMethod(this, &TabbedRunFollower::catchUpNext, Qt::QueuedConnection);
}

void TabbedRunFollower::catchUpNext() {
    next_queued_ = false;
    const auto behind = std::find_if(pages_.begin(), pages_.end(), [this](const Page& page) { return page.held != generation_; });
    if (behind == pages_.end()) {
        Q_EMIT caughtUp();
        return;
    }
    catchUp(behind->widget);
    queueNext();  // the next one, or caughtUp(), at the next turn
}

}  // namespace parasight::gui
