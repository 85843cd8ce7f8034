#pragma once
// The details of the event selected in the timeline: what it is, what it waited for (the last to end first: what
// held it back, and by how much each ended before it started), the same collective on its simulated peers, and what
// waited for it on other devices. Choosing a related event selects it in the timeline. Or, for a stretch of time
// selected with Shift+drag, its length and the time per kind of event in it (range_summary.h).

#include "analysis/event_relations.h"
#include "analysis/range_summary.h"
#include "analysis/timeline.h"

#include <QWidget>


class QLabel;
class QListWidget;

namespace parasight::gui {

class EventDetails : public QWidget {
    Q_OBJECT

public:
    explicit EventDetails(QWidget* parent = nullptr);

    // Shows `event` of `timeline` and its relations, as relations_of() gives them.
    void showDetails(const Timeline& timeline, EventId event, const EventRelations& relations);
    void showRange(const RangeSummary& summary);
    // The lines listed, as shown (for tests).
    [[nodiscard]] QStringList lines() const;

Q_SIGNALS:
    void eventChosen(qint64 event);

private:
    QLabel* summary_ = nullptr;
    QListWidget* related_ = nullptr;
};

}  // namespace parasight::gui
