#pragma once
// Two runs' breakdown and memory side by side (history/compared_runs_job.h): a bar per run of where its iteration
// went (style/breakdown_parts.h: compute, exposed communication by group, exposed memory, bubble, idle) on one time
// scale, and a bar per run of its peak device's memory at its peak by category (weights, gradients, optimizer
// states, activations, buffers) on one byte scale with the device's capacity marked; each bar's total and B's ratio
// to A written beside it, a key under each pair. Hovering a part says its name and both runs' values.

#include <QWidget>

#include <memory>
#include <optional>

namespace parasight::gui {

struct ComparedRuns;

class ComparedBarsView : public QWidget {
    Q_OBJECT

public:
    explicit ComparedBarsView(QWidget* parent = nullptr);

    void showComparison(std::shared_ptr<const ComparedRuns> compared);
    void showMessage(const QString& message);

    // Where part `part` of run A's (`run_b` false) or B's time bar is drawn (breakdown_parts order); empty if none.
    [[nodiscard]] QRect timePartRect(bool run_b, int part) const;
    // Where memory category `category` of a run's memory bar is drawn; empty if none.
    [[nodiscard]] QRect memoryPartRect(bool run_b, int category) const;
    // The text beside a run's time bar ("19.53 s" for A; "19.19 s · 0.98×" for B), and its memory bar's.
    [[nodiscard]] QString timeTotalText(bool run_b) const;
    [[nodiscard]] QString memoryTotalText(bool run_b) const;

    [[nodiscard]] QSize sizeHint() const override { return {800, 300}; }
    [[nodiscard]] QSize minimumSizeHint() const override { return {240, 60}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    // A bar's area: the time bars' (section 0) or the memory bars' (section 1), run A's or B's.
    [[nodiscard]] QRect barRect(int section, bool run_b) const;
    [[nodiscard]] QString partToolTip(const QPoint& at) const;

    std::shared_ptr<const ComparedRuns> compared_;
    QString message_;
};

}  // namespace parasight::gui
