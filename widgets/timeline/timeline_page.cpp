#include "timeline/timeline_page.h"

#include "analysis/range_summary.h"
#include "picture/export_button.h"
#include "run/show_run_state.h"
#include "timeline/event_details.h"
#include "analysis/event_search.h"
#include "timeline/timeline_export.h"
#include "timeline/timeline_overview.h"
#include "timeline/playhead_bar.h"
#include "timeline/timeline_view.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>
#include <QVBoxLayout>

namespace parasight::gui {

TimelinePage::TimelinePage(QWidget* parent) : QSplitter(Qt::Vertical, parent) {
    auto* chart = new QWidget(this);
    overview_ = new TimelineOverview(chart);
    view_ = new TimelineView(chart);
    // The overview's time 0 under the view's: as far in as the row headers are wide.
    overview_->setLeftMargin(view_->sizes().header_width_px);
    connect(view_, &TimelineView::sizesChanged, this,
            [this] { overview_->setLeftMargin(view_->sizes().header_width_px); });
    auto* tools = new QHBoxLayout;
    tools->setContentsMargins(6, 4, 6, 4);
    auto* memory_lanes = new QCheckBox(tr("&Memory lanes"), chart);
    memory_lanes->setObjectName(QStringLiteral("MemoryLanes"));
    memory_lanes->setToolTip(tr("Each device's allocated memory over the iteration, against its capacity"));
    tools->addWidget(memory_lanes);
    tools->addSpacing(12);
    search_ = new QLineEdit(chart);
    search_->setObjectName(QStringLiteral("TimelineSearch"));
    search_->setPlaceholderText(tr("Find: operation, layer N, mb N — Enter for the next"));
    search_->setClearButtonEnabled(true);
    search_->setMinimumWidth(280);
    search_found_ = new QLabel(chart);
    tools->addWidget(search_, 1);
    tools->addWidget(search_found_);
    tools->addStretch(1);
    // Each writes what the page shows; without a result there is nothing to write, and the message box says so.
    const auto with_levels = [this](std::function<std::optional<QString>(const QString&)> write) {
        return [this, write = std::move(write)](const QString& path) -> std::optional<QString> {
            if (!levels_) return tr("there is no result to export");
            return write(path);
        };
    };
    QToolButton* export_button = make_export_button(
        chart,
        {ExportChoice{tr("Visible Range as &PNG…"), tr("Export the Visible Range as PNG"), tr("PNG images (*.png)"),
                      QStringLiteral(".png"),
                      with_levels([this](const QString& path) { return export_timeline_png(*view_, path); })},
         ExportChoice{tr("Visible Range as &SVG…"), tr("Export the Visible Range as SVG"), tr("SVG images (*.svg)"),
                      QStringLiteral(".svg"),
                      with_levels([this](const QString& path) { return export_timeline_svg(*view_, path); })},
         ExportChoice{tr("Whole Run as &Chrome Trace (JSON)…"), tr("Export the Run as a Chrome Trace"),
                      tr("Chrome trace JSON (*.json)"), QStringLiteral(".json"), with_levels([this](const QString& path) {
                          return export_chrome_trace(levels_->timeline(), path);
                      })}});
    export_button->setObjectName(QStringLiteral("TimelineExport"));
    tools->addWidget(export_button);
    playhead_ = new PlayheadBar(chart);
    auto* layout = new QVBoxLayout(chart);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(tools);
    layout->addWidget(playhead_);
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
            details_->showDetails(levels_->timeline(), static_cast<EventId>(event), view_->relations());
        }
    });
    connect(search_, &QLineEdit::returnPressed, this, &TimelinePage::findNext);
    connect(search_, &QLineEdit::textChanged, this, [this] {
        matches_.clear();
        search_found_->clear();
    });
    connect(view_, &TimelineView::rangeChanged, overview_, &TimelineOverview::showRange);
    connect(view_, &TimelineView::rangeSelected, this, [this](double from_s, double to_s) {
        const bool shown = to_s > from_s && levels_ != nullptr;
        if (shown) details_->showRange(summarize_range(levels_->timeline(), from_s, to_s));
        details_->setVisible(shown || view_->selected().has_value());
    });
    connect(memory_lanes, &QCheckBox::toggled, view_, &TimelineView::setMemoryLanesShown);
    connect(playhead_, &PlayheadBar::moved, view_, &TimelineView::setPlayhead);
    connect(view_, &TimelineView::playheadStepRequested, playhead_, &PlayheadBar::step);
    connect(overview_, &TimelineOverview::rangeRequested, view_, &TimelineView::showRange);
    connect(details_, &EventDetails::eventChosen, this,
            [this](qint64 event) { view_->select(static_cast<EventId>(event), true); });
}

void TimelinePage::findNext() {
    if (!levels_) return;
    const std::optional<EventQuery> query = parse_event_query(search_->text().toStdString());
    if (!query) {
        search_found_->clear();
        return;
    }
    if (matches_.empty()) {
        matches_ = find_events(levels_->timeline(), *query);
        next_match_ = 0;
    }
    if (matches_.empty()) {
        search_found_->setText(
            tr("no events match: %1").arg(QString::fromStdString(why_nothing_matches(levels_->timeline(), *query))));
        return;
    }
    const std::size_t shown = next_match_ % matches_.size();
    next_match_ = shown + 1;
    view_->select(matches_[shown], true);
    search_found_->setText(tr("%1 of %2").arg(shown + 1).arg(matches_.size()));
}

void TimelinePage::showTimeline(std::shared_ptr<const TimelineLevels> levels,
                                std::shared_ptr<const IdenticalDevices> classes, double capacity_bytes) {
    levels_ = levels;
    matches_.clear();
    search_found_->clear();
    // The playhead keeps the timeline alive through its levels (an aliasing pointer).
    playhead_->setTimeline(levels ? std::shared_ptr<const Timeline>(levels, &levels->timeline()) : nullptr);
    overview_->showTimeline(levels);
    view_->showTimeline(std::move(levels), std::move(classes), capacity_bytes);
    // The view has dropped its selection and measured range: their numbers belonged to the run before.
    details_->hide();
}

void TimelinePage::showMessage(const QString& message) {
    shown_run_ = nullptr;
    levels_.reset();
    playhead_->setTimeline(nullptr);
    overview_->showTimeline(nullptr);
    view_->showMessage(message);
    details_->hide();
}

void TimelinePage::startOver() {
    search_->clear();
    details_->hide();
}

void TimelinePage::showRun(const RunState& state) { show_run_state(*this, state, shown_run_); }

void TimelinePage::showResult(const std::shared_ptr<const SimulationResult>& result) {
    shown_run_ = result.get();
    showTimeline(result->timeline_levels, result->identical_devices,
                 result->scenario->value().cluster.device.memory_bytes);
}


bool TimelinePage::reveal(const Target& target) {
    if (!levels_) return false;
    switch (target.kind) {
        case TargetKind::device: {
            if (target.name != "timeline") return false;
            const std::optional<std::size_t> device = view_->deviceOfNpu(target.npu);
            if (device) view_->revealDevice(*device);
            return device.has_value();
        }
        case TargetKind::events:
            search_->setText(QString::fromStdString(target.name));
            findNext();
            return !matches_.empty();
        case TargetKind::time_range:
            view_->showRange(target.from_s, target.to_s);
            view_->selectRange(target.from_s, target.to_s);
            return true;
        default: return false;
    }
}

std::optional<TargetArea> TimelinePage::areaOf(const Target& target) const {
    std::optional<QRect> rect;
    switch (target.kind) {
        case TargetKind::device:
            if (const auto device = view_->deviceOfNpu(target.npu)) rect = view_->deviceRowRect(*device);
            break;
        case TargetKind::events:
            if (const auto selected = view_->selected()) {
                if (const auto point = view_->pointOf(*selected)) rect = QRect(*point - QPoint(12, 8), QSize(24, 16));
            }
            break;
        case TargetKind::time_range: rect = view_->rangeRect(target.from_s, target.to_s); break;
        default: break;
    }
    if (!rect) return std::nullopt;
    return TargetArea{view_->viewport(), *rect};
}

}  // namespace parasight::gui
