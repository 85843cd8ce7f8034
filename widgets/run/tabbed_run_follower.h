#pragma once
// How the result tabs follow the run session (run/run_session.h) without stalling the window. The tab in front is
// handed each new state at once; the hidden tabs catch up with the newest state one tab per turn of the event loop,
// so that a keystroke or a repaint that comes while a result is being shown waits for one view's rebuild, not for
// every tab's (the Breakdown's and Memory's charts alone take tens of milliseconds), and a hidden tab never holds an
// old result for longer than those few turns. A tab brought to the front, or asked for by name (catchUp: a device
// revealed in the hidden Timeline), catches up first. caughtUp() says when every tab holds the newest state.

#include "run/run_session.h"

#include <QObject>

#include <cstdint>
#include <functional>
#include <vector>

class QTabWidget;
class QWidget;

namespace parasight::gui {

class TabbedRunFollower : public QObject {
    Q_OBJECT

public:
    using Show = std::function<void(const RunState&)>;

    TabbedRunFollower(const RunSession& session, QTabWidget& tabs, QObject* parent = nullptr);

    // `page`, a tab of `tabs`, follows the session through `show` (which draws a state: the view's showRun).
    void follow(QWidget* page, Show show);
    // Hands `page` the session's state now unless it already holds it.
    void catchUp(QWidget* page);
    // Whether every page holds the session's newest state.
    [[nodiscard]] bool isCaughtUp() const;

Q_SIGNALS:
    void caughtUp();

private:
    struct Page {
        QWidget* widget = nullptr;
        Show show;
        std::uint64_t held = 0;  // the generation of the state it was last handed
    };

    void onChanged();
    void catchUpNext();
    void queueNext();

    const RunSession& session_;
    QTabWidget& tabs_;
    std::vector<Page> pages_;
    std::uint64_t generation_ = 0;  // of the session's state: one more at every change
    bool next_queued_ = false;
};

}  // namespace parasight::gui
