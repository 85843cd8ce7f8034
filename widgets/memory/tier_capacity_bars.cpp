#include "memory/tier_capacity_bars.h"

#include "analysis/stage_figures.h"
#include "export/offload_words.h"
#include "style/activity_colors.h"
#include "style/quantity_text.h"

#include <QFontMetrics>
#include <QHelpEvent>
#include <QPainter>
#include <QStringList>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace parasight::gui {
namespace {

constexpr int gap_px = 12;
constexpr int min_track_px = 120;

QString tier_name(const OffloadUse& use) {
    switch (use.target) {
    case OffloadTarget::none: break;
    case OffloadTarget::host: return TierCapacityBars::tr("Host memory (node of NPU %1)").arg(use.first_npu);
    case OffloadTarget::nvme: return TierCapacityBars::tr("NVMe (node of NPU %1)").arg(use.first_npu);
    case OffloadTarget::pool: return TierCapacityBars::tr("Memory pool (every device's)");
    }
    return {};
}

}  // namespace

QString TierCapacityRow::usage_text() const {
    return TierCapacityBars::tr("%1 of %2 (%3%)")
        .arg(bytes_text(used_bytes), bytes_text(capacity_bytes))
        .arg(100.0 * share(), 0, 'f', 1);
}

std::vector<TierCapacityRow> tier_capacity_rows(const Report& report) {
    std::vector<TierCapacityRow> rows;
    if (report.offloads.empty() || report.per_device.empty()) return rows;
    const DeviceReport& fullest = report.per_device[fullest_device(report)];
    rows.push_back(TierCapacityRow{TierCapacityBars::tr("Device memory (NPU %1)").arg(fullest.npu),
                                   TierCapacityBars::tr("at its peak"), fullest.peak_memory_bytes,
                                   report.memory_capacity_bytes, compute_color()});
    for (const OffloadUse& use : report.offloads) {
        rows.push_back(TierCapacityRow{tier_name(use), QString::fromStdString(offloaded_states_words(use)), use.bytes,
                                       use.capacity_bytes, exposed_remote_memory_color()});
    }
    return rows;
}

TierCapacityBars::TierCapacityBars(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("TierCapacityBars"));
    setAccessibleName(tr("Capacity per memory tier"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    hide();
}

void TierCapacityBars::showReport(const Report& report) {
    rows_ = tier_capacity_rows(report);
    QStringList description;
    for (const TierCapacityRow& row : rows_) description << row.tier + QStringLiteral(": ") + rowText(row);
    setAccessibleDescription(description.join(QStringLiteral("; ")));
    setVisible(!rows_.empty());
    updateGeometry();
    update();
}

void TierCapacityBars::clear() {
    rows_.clear();
    hide();
}

int TierCapacityBars::rowHeight() const { return fontMetrics().height() + 8; }

int TierCapacityBars::nameWidth() const {
    int width = 0;
    for (const TierCapacityRow& row : rows_) width = std::max(width, fontMetrics().horizontalAdvance(row.tier));
    return width;
}

int TierCapacityBars::textWidth() const {
    int width = 0;
    for (const TierCapacityRow& row : rows_) width = std::max(width, fontMetrics().horizontalAdvance(rowText(row)));
    return width;
}

QString TierCapacityBars::rowText(const TierCapacityRow& row) const {
    QString text = row.usage_text() + QStringLiteral(" · ") + row.keeps;
    if (row.over()) text += tr(" — does not fit");
    return text;
}

QRect TierCapacityBars::trackRect(int row) const {
    // The text column takes what it needs, up to half the width; the bars the rest, at least min_track_px.
    const int name = nameWidth();
    const int text = std::min(textWidth(), width() / 2);
    const int track = std::max(min_track_px, width() - name - text - 2 * gap_px);
    const int h = rowHeight();
    return {name + gap_px, row * h + 4, track, h - 8};
}

int TierCapacityBars::rowAt(int y) const {
    const int row = y / rowHeight();
    return row >= 0 && row < static_cast<int>(rows_.size()) ? row : -1;
}

QSize TierCapacityBars::sizeHint() const {
    return {nameWidth() + min_track_px * 3 + textWidth() + 2 * gap_px, rowHeight() * static_cast<int>(rows_.size())};
}

QSize TierCapacityBars::minimumSizeHint() const {
    return {nameWidth() + min_track_px + 2 * gap_px, rowHeight() * static_cast<int>(rows_.size())};
}

void TierCapacityBars::paintEvent(QPaintEvent* /*event*/) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing, false);
    const QPalette& colors = palette();
    const int h = rowHeight();
    for (int r = 0; r < static_cast<int>(rows_.size()); ++r) {
        const TierCapacityRow& row = rows_[static_cast<std::size_t>(r)];
        const QRect track = trackRect(r);
        painter.setPen(colors.color(QPalette::WindowText));
        painter.drawText(QRect(0, r * h, nameWidth(), h), Qt::AlignVCenter | Qt::AlignLeft, row.tier);
        // The track is the capacity; the fill what is used, red across the whole track when it does not fit.
        painter.fillRect(track, colors.color(QPalette::AlternateBase));
        const double share = std::clamp(row.share(), 0.0, 1.0);
        QRect fill = track;
        fill.setWidth(static_cast<int>(std::lround(share * track.width())));
        painter.fillRect(fill, row.over() ? over_capacity_color() : row.color);
        painter.setPen(colors.color(QPalette::Mid));
        painter.drawRect(track.adjusted(0, 0, -1, -1));
        const QRect text(track.right() + gap_px, r * h, width() - track.right() - gap_px, h);
        QFont font = painter.font();
        font.setBold(row.over());
        painter.setFont(font);
        painter.setPen(row.over() ? over_capacity_color() : colors.color(QPalette::WindowText));
        painter.drawText(text, Qt::AlignVCenter | Qt::AlignLeft,
                         QFontMetrics(font).elidedText(rowText(row), Qt::ElideRight, text.width()));
        font.setBold(false);
        painter.setFont(font);
    }
}

bool TierCapacityBars::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int row = rowAt(help->pos().y());
        if (row < 0) {
            QToolTip::hideText();
            event->ignore();
            return true;
        }
        const TierCapacityRow& shown = rows_[static_cast<std::size_t>(row)];
        QToolTip::showText(help->globalPos(), shown.tier + QStringLiteral("\n") + rowText(shown), this);
        return true;
    }
    return QWidget::event(event);
}

}  // namespace parasight::gui
