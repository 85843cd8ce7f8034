#include "timeline/timeline_page.h"

#include "analysis/range_summary.h"
#include "timeline/event_details.h"
#include "timeline/timeline_export.h"
#include "timeline/timeline_overview.h"
#include "timeline/timeline_view.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QMenu>
#include <QMessageBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace parasight::gui {

TimelinePage::TimelinePage(QWidget* parent) : QSplitter(Qt::Vertical, parent) {
    auto* chart = new QWidget(this);
    overview_ = new TimelineOverview(chart);
    overview_->setLeftMargin(TimelineView::header_width_px);
    view_ = new TimelineView(chart);
    auto* tools = new QHBoxLayout;
    tools->setContentsMargins(6, 4, 6, 4);
    auto* memory_lanes = new QCheckBox(tr("&Memory lanes"), chart);
    memory_lanes->setObjectName(QStringLiteral("MemoryLanes"));
    memory_lanes->setToolTip(tr("Each device's allocated memory over the iteration, against its capacity"));
    tools->addWidget(memory_lanes);
    tools->addStretch(1);
    auto* export_button = new QToolButton(chart);
    export_button->setObjectName(QStringLiteral("TimelineExport"));
    export_button->setText(tr("Export"));
    export_button->setPopupMode(QToolButton::InstantPopup);
    auto* export_menu = new QMenu(export_button);
    export_menu->addAction(tr("Visible Range as &PNG…"), this, [this] {
        exportWith(tr("Export the Visible Range as PNG"), tr("PNG images (*.png)"), QStringLiteral(".png"),
                   [this](const QString& path) { return export_timeline_png(*view_, path); });
    });
    export_menu->addAction(tr("Visible Range as &SVG…"), this, [this] {
        exportWith(tr("Export the Visible Range as SVG"), tr("SVG images (*.svg)"), QStringLiteral(".svg"),
                   [this](const QString& path) { return export_timeline_svg(*view_, path); });
    });
    export_menu->addAction(tr("Whole Run as &Chrome Trace (JSON)…"), this, [this] {
        exportWith(tr("Export the Run as a Chrome Trace"), tr("Chrome trace JSON (*.json)"), QStringLiteral(".json"),
                   [this](const QString& path) { return export_chrome_trace(levels_->timeline(), path); });
    });
    export_button->setMenu(export_menu);
    tools->addWidget(export_button);
    auto* layout = new QVBoxLayout(chart);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(tools);
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
    connect(view_, &TimelineView::rangeSelected, this, [this](double from_s, double to_s) {
        const bool shown = to_s > from_s && levels_ != nullptr;
        if (shown) details_->showRange(summarize_range(levels_->timeline(), from_s, to_s));
        details_->setVisible(shown || view_->selected().has_value());
    });
    connect(memory_lanes, &QCheckBox::toggled, view_, &TimelineView::setMemoryLanesShown);
    connect(overview_, &TimelineOverview::rangeRequested, view_, &TimelineView::showRange);
    connect(details_, &EventDetails::eventChosen, this,
            [this](qint64 event) { view_->select(static_cast<EventId>(event), true); });
}

void TimelinePage::exportWith(const QString& title, const QString& filter, const QString& suffix,
                              const std::function<std::optional<QString>(const QString&)>& write) {
    if (!levels_) return;
    QString path = QFileDialog::getSaveFileName(this, title, QString(), filter);
    if (path.isEmpty()) return;
    if (!path.endsWith(suffix, Qt::CaseInsensitive)) path += suffix;
    if (const std::optional<QString> error = write(path)) {
        QMessageBox::critical(this, tr("Cannot export"), tr("Writing %1 failed: %2").arg(path, *error));
    }
}

void TimelinePage::showTimeline(std::shared_ptr<const TimelineLevels> levels, double capacity_bytes) {
    levels_ = levels;
    overview_->showTimeline(levels);
    view_->showTimeline(std::move(levels), capacity_bytes);
}

void TimelinePage::showMessage(const QString& message) {
    levels_.reset();
    overview_->showTimeline(nullptr);
    view_->showMessage(message);
}

}  // namespace parasight::gui
