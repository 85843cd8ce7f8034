#include "history/compared_bars_view.h"

#include "history/compared_runs_job.h"
#include "style/activity_colors.h"
#include "style/breakdown_parts.h"
#include "style/memory_category_text.h"
#include "style/quantity_text.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <array>
#include <span>

namespace parasight::gui {
namespace {

constexpr int margin_px = 10;
constexpr int label_width_px = 24;   // "A", "B"
constexpr int total_width_px = 190;  // "19.19 s · 0.98×", "17.4 GiB of 80 GiB · 1.02×"
constexpr int bar_height_px = 20;
constexpr int bar_gap_px = 6;
constexpr int categories = static_cast<int>(memory_category_count);

const Report& report_of(const ComparedRuns& compared, bool run_b) { return run_b ? compared.b_report : compared.a_report; }

std::array<double, categories> memory_parts(const Report& report) {
    std::array<double, categories> parts{};
    std::copy(report.memory_by_category_bytes.begin(), report.memory_by_category_bytes.end(), parts.begin());
    return parts;
}

// Where the parts of a bar go, left to right, on a scale of `full` over `bar`'s width.
QRect part_rect(const QRect& bar, std::span<const double> parts, double full, int part) {
    if (full <= 0.0 || parts[static_cast<std::size_t>(part)] <= 0.0) return {};
    double before = 0.0;
    for (int p = 0; p < part; ++p) before += parts[static_cast<std::size_t>(p)];
    const int left = bar.left() + static_cast<int>(std::lround(bar.width() * before / full));
    const int right = bar.left() + static_cast<int>(
                                       std::lround(bar.width() * (before + parts[static_cast<std::size_t>(part)]) / full));
    return QRect(left, bar.top(), std::max(1, right - left), bar.height());
}

QString ratio_text(double a, double b) {
    return a > 0.0 ? QStringLiteral(" · %1×").arg(fixed_text(b / a, 2)) : QString();
}

}  // namespace

ComparedBarsView::ComparedBarsView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("ComparedBarsView"));
    setMouseTracking(true);
}

void ComparedBarsView::showComparison(std::shared_ptr<const ComparedRuns> compared) {
    compared_ = std::move(compared);
    message_.clear();
    update();
}

void ComparedBarsView::showMessage(const QString& message) {
    compared_.reset();
    message_ = message;
    update();
}

QRect ComparedBarsView::barRect(int section, bool run_b) const {
    const QFontMetrics metrics(font());
    // Each section: its title, bar A, bar B, its key.
    const int section_height = metrics.height() + 4 + 2 * bar_height_px + bar_gap_px + metrics.height() + 16;
    const int top = margin_px + section * section_height + metrics.height() + 4 +
                    (run_b ? bar_height_px + bar_gap_px : 0);
    const int left = margin_px + label_width_px;
    return QRect(left, top, std::max(40, width() - left - total_width_px - margin_px), bar_height_px);
}

QRect ComparedBarsView::timePartRect(bool run_b, int part) const {
    if (!compared_) return {};
    const double full = std::max(compared_->a_report.iteration_time_s, compared_->b_report.iteration_time_s);
    return part_rect(barRect(0, run_b), breakdown_parts_s(report_of(*compared_, run_b).breakdown), full, part);
}

QRect ComparedBarsView::memoryPartRect(bool run_b, int category) const {
    if (!compared_) return {};
    const Report& a = compared_->a_report;
    const Report& b = compared_->b_report;
    const double full = std::max({a.peak_memory_bytes, b.peak_memory_bytes, a.memory_capacity_bytes,
                                  b.memory_capacity_bytes});
    return part_rect(barRect(1, run_b), memory_parts(report_of(*compared_, run_b)), full, category);
}

QString ComparedBarsView::timeTotalText(bool run_b) const {
    if (!compared_) return {};
    const double a = compared_->a_report.iteration_time_s;
    const double b = compared_->b_report.iteration_time_s;
    return run_b ? time_text(b) + ratio_text(a, b) : time_text(a);
}

QString ComparedBarsView::memoryTotalText(bool run_b) const {
    if (!compared_) return {};
    const Report& report = report_of(*compared_, run_b);
    QString text = tr("%1 of %2").arg(bytes_text(report.peak_memory_bytes), bytes_text(report.memory_capacity_bytes));
    if (run_b) text += ratio_text(compared_->a_report.peak_memory_bytes, report.peak_memory_bytes);
    return text;
}

void ComparedBarsView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    const QColor text = palette().color(QPalette::Text);
    if (!compared_) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect().adjusted(20, 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap, message_);
        return;
    }
    const QFontMetrics metrics(font());
    const auto key = [&](int top, const std::vector<std::pair<QString, QColor>>& entries) {
        int x = margin_px + label_width_px;
        for (const auto& [name, colour] : entries) {
            painter.fillRect(QRect(x, top + 3, 10, 10), colour);
            painter.setPen(text);
            const int w = metrics.horizontalAdvance(name);
            painter.drawText(QRect(x + 14, top, w + 2, metrics.height()), Qt::AlignVCenter | Qt::AlignLeft, name);
            x += 14 + w + 14;
        }
    };
    for (int section = 0; section < 2; ++section) {
        const QRect a_bar = barRect(section, false);
        painter.setPen(text);
        painter.drawText(QRect(margin_px, a_bar.top() - metrics.height() - 4, width() - 2 * margin_px, metrics.height()),
                         Qt::AlignLeft | Qt::AlignVCenter,
                         section == 0 ? tr("Where the iteration went (mean over devices)")
                                      : tr("Memory of the peak device at its peak"));
        std::vector<std::pair<QString, QColor>> entries;
        for (const bool run_b : {false, true}) {
            const QRect bar = barRect(section, run_b);
            painter.setPen(text);
            painter.drawText(QRect(margin_px, bar.top(), label_width_px, bar.height()), Qt::AlignVCenter | Qt::AlignLeft,
                             run_b ? tr("B") : tr("A"));
            const int parts = section == 0 ? breakdown_part_count : categories;
            for (int part = 0; part < parts; ++part) {
                const QRect box = section == 0 ? timePartRect(run_b, part) : memoryPartRect(run_b, part);
                if (box.isEmpty()) continue;
                painter.fillRect(box, section == 0 ? breakdown_part_color(part)
                                                   : memory_category_color(static_cast<MemoryCategory>(part)));
            }
            painter.setPen(text);
            painter.drawText(QRect(bar.right() + 8, bar.top(), total_width_px, bar.height()),
                             Qt::AlignVCenter | Qt::AlignLeft, section == 0 ? timeTotalText(run_b) : memoryTotalText(run_b));
        }
        if (section == 1) {
            // The capacity, where it is inside the scale: a dashed line across both bars.
            const Report& a = compared_->a_report;
            const double full = std::max({a.peak_memory_bytes, compared_->b_report.peak_memory_bytes,
                                          a.memory_capacity_bytes, compared_->b_report.memory_capacity_bytes});
            if (full > 0.0 && a.memory_capacity_bytes > 0.0) {
                const int x = a_bar.left() + static_cast<int>(std::lround(a_bar.width() * a.memory_capacity_bytes / full));
                painter.setPen(QPen(text, 1.0, Qt::DashLine));
                painter.drawLine(x, a_bar.top() - 2, x, barRect(1, true).bottom() + 2);
            }
        }
        for (int part = 0; part < (section == 0 ? breakdown_part_count : categories); ++part) {
            const bool present = !(section == 0 ? timePartRect(false, part) : memoryPartRect(false, part)).isEmpty() ||
                                 !(section == 0 ? timePartRect(true, part) : memoryPartRect(true, part)).isEmpty();
            if (!present) continue;
            entries.emplace_back(section == 0 ? breakdown_part_name(part)
                                              : memory_category_text(static_cast<MemoryCategory>(part)),
                                 section == 0 ? breakdown_part_color(part)
                                              : memory_category_color(static_cast<MemoryCategory>(part)));
        }
        key(barRect(section, true).bottom() + 6, entries);
    }
}

QString ComparedBarsView::partToolTip(const QPoint& at) const {
    if (!compared_) return {};
    for (int section = 0; section < 2; ++section) {
        const int parts = section == 0 ? breakdown_part_count : categories;
        for (const bool run_b : {false, true}) {
            for (int part = 0; part < parts; ++part) {
                const QRect box = section == 0 ? timePartRect(run_b, part) : memoryPartRect(run_b, part);
                if (!box.contains(at)) continue;
                if (section == 0) {
                    const double a = breakdown_parts_s(compared_->a_report.breakdown)[static_cast<std::size_t>(part)];
                    const double b = breakdown_parts_s(compared_->b_report.breakdown)[static_cast<std::size_t>(part)];
                    return tr("%1\nA: %2, B: %3%4").arg(breakdown_part_name(part), time_text(a), time_text(b),
                                                        ratio_text(a, b));
                }
                const double a = compared_->a_report.memory_by_category_bytes[static_cast<std::size_t>(part)];
                const double b = compared_->b_report.memory_by_category_bytes[static_cast<std::size_t>(part)];
                return tr("%1\nA: %2, B: %3%4")
                    .arg(memory_category_text(static_cast<MemoryCategory>(part)), bytes_text(a), bytes_text(b),
                         ratio_text(a, b));
            }
        }
    }
    return {};
}

bool ComparedBarsView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        const QString tip = partToolTip(help->pos());
        if (tip.isEmpty()) {
            QToolTip::hideText();
        } else {
            QToolTip::showText(help->globalPos(), tip, this);
        }
        return true;
    }
    return QWidget::event(event);
}

}  // namespace parasight::gui
