#include "timeline/event_details.h"

#include "style/quantity_text.h"
#include "timeline/event_text.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>

#include <set>

namespace parasight::gui {

namespace {

constexpr int event_role = Qt::UserRole;

// A line that names no event: a heading (bold) or a figure.
void add_line(QListWidget& list, const QString& text, bool heading) {
    auto* item = new QListWidgetItem(text, &list);
    QFont font = item->font();
    font.setBold(heading);
    item->setFont(font);
    item->setFlags(Qt::ItemIsEnabled);
}

void add_heading(QListWidget& list, const QString& text) { add_line(list, text, true); }

void add_event(QListWidget& list, const QString& text, EventId event) {
    auto* item = new QListWidgetItem(QStringLiteral("    ") + text, &list);
    item->setData(event_role, static_cast<qint64>(event));
}

}  // namespace

EventDetails::EventDetails(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("EventDetails"));
    summary_ = new QLabel(this);
    summary_->setTextFormat(Qt::RichText);
    summary_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    summary_->setWordWrap(true);
    summary_->setMinimumWidth(260);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    related_ = new QListWidget(this);
    related_->setObjectName(QStringLiteral("RelatedEvents"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(summary_, 2);
    layout->addWidget(related_, 3);
    connect(related_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        const QVariant event = item->data(event_role);
        if (event.isValid()) Q_EMIT eventChosen(event.toLongLong());
    });
    connect(related_, &QListWidget::itemClicked, related_, &QListWidget::itemActivated);
}

void EventDetails::showDetails(const Timeline& t, EventId event, const EventRelations& relations) {
    related_->clear();
    const TimelineEvent shown = t.event(event);
    summary_->setText(tr("%1<br>on NPU %2")
                          .arg(box_description(t, LaneBox{shown.start_s, shown.end_s, 1, event, 0}, 0.0))
                          .arg(t.devices().at(shown.device).npu));

    const std::vector<Wait>& waits = relations.waits;
    add_heading(*related_, waits.empty() ? tr("Waited for nothing: it started the iteration")
                                         : tr("Waited for (the last to end first)"));
    for (const Wait& wait : waits) {
        QString text = event_name(t, wait.event);
        text += wait.ended_before_s <= 0.0 ? tr(" — ended as it started") : tr(" — ended %1 before it started")
                                                                               .arg(time_text(wait.ended_before_s));
        if (wait.on_same_lane) text += tr(" (before it on its lane)");
        add_event(*related_, text, wait.event);
    }
    const std::vector<EventId>& into = relations.critical_path;
    const std::vector<EventId>& onward = relations.critical_path_onward;
    if (!into.empty() || !onward.empty()) {
        std::set<std::int64_t> npus;
        for (const auto* path : {&into, &onward}) {
            for (const EventId step : *path) npus.insert(t.devices().at(t.event(step).device).npu);
        }
        QStringList names;
        for (const std::int64_t npu : npus) {
            if (names.size() == 8) {
                names << tr("and %1 more").arg(npus.size() - 8);
                break;
            }
            names << QString::number(npu);
        }
        // Where the path on from it ends: the iteration's end, or an event whose successors had other reasons to wait.
        const QString end = onward.empty() ? tr("none after it")
                                           : tr("%1 after it, to %2").arg(onward.size()).arg(time_text(t.event(onward.back()).end_s));
        add_heading(*related_, tr("Critical path through it (underlined): %1 events before it, %2").arg(into.size()).arg(end));
        add_line(*related_, QStringLiteral("    ") + tr("on NPU %1").arg(names.join(QStringLiteral(", "))), false);
    }
    if (!relations.same_collective.empty()) {
        add_heading(*related_, tr("The same collective on"));
        for (const EventId member : relations.same_collective) add_event(*related_, event_name(t, member), member);
    }
    if (!relations.waited_on_elsewhere.empty()) {
        add_heading(*related_, tr("Waited for it on other devices"));
        for (const EventId other : relations.waited_on_elsewhere) add_event(*related_, event_name(t, other), other);
    }
}

void EventDetails::showRange(const RangeSummary& summary) {
    related_->clear();
    const double length_s = summary.to_s - summary.from_s;
    summary_->setText(tr("<b>Δ %1</b><br>from %2 to %3<br>%4 events overlap it")
                          .arg(time_text(length_s), time_text(summary.from_s), time_text(summary.to_s))
                          .arg(summary.events));
    add_heading(*related_, tr("Time per device inside it, by kind (mean over the devices)"));
    for (const auto& kind : task_kind_names) {
        const double seconds = summary.mean_s_by_kind[static_cast<std::size_t>(kind.value)];
        if (seconds <= 0.0) continue;
        add_line(*related_,
                 QStringLiteral("    ") + tr("%1 — %2 (%3 of the range)")
                                             .arg(task_kind_label(kind.value), time_text(seconds),
                                                  percent_text(100.0 * seconds / length_s)),
                 false);
    }
}

QStringList EventDetails::lines() const {
    QStringList lines;
    for (int i = 0; i < related_->count(); ++i) lines << related_->item(i)->text().trimmed();
    return lines;
}

}  // namespace parasight::gui
