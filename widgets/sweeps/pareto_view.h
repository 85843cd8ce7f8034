#pragma once
// A stored sweep's trade-off (store/sweep_pareto.h) as a scatter: what each point that fits costs across (peak memory
// or devices), what it gives up the axis (the better end at the top), every point a dot — drawn once into an image
// per data and size, so 10^5 points repaint as one picture — and the Pareto front as a line through its points, each
// ringed. The points the front dominates can be dimmed. Clicking near a point selects it (the table and heatmap mark
// it too); double-clicking names it, for the window to open it; hovering says what it costs and gives.

#include "store/sweep_pareto.h"

#include <QImage>
#include <QString>
#include <QWidget>

#include <functional>
#include <optional>

namespace parasight::gui {

class ParetoView : public QWidget {
    Q_OBJECT

public:
    explicit ParetoView(QWidget* parent = nullptr);

    void showPareto(SweepPareto pareto, const GridMetric& cost, const GridMetric& result);
    void showMessage(const QString& message);
    // What the context menu's compare action says (run/comparison_choice.h); empty: no such action.
    void setCompareText(const QString& text) { compare_text_ = text; }
    // Draws the points the front dominates faded.
    void setDominatedDimmed(bool dimmed);
    // Marks the point numbered `point` (the selection the table and heatmap share); none, or one that does not fit.
    void setMarkedPoint(std::optional<std::int64_t> point);
    [[nodiscard]] std::optional<std::size_t> markedIndex() const noexcept { return marked_index_; }
    [[nodiscard]] const std::optional<SweepPareto>& pareto() const noexcept { return pareto_; }
    // Where point `index` (of pareto().points) is drawn.
    [[nodiscard]] QPoint pointAt(std::size_t index) const;
    // The front point nearest `at` within a few pixels, as an index into pareto().points.
    [[nodiscard]] std::optional<std::size_t> frontPointNear(const QPoint& at) const;
    // The point nearest `at` within a few pixels, front points first, as an index into pareto().points.
    [[nodiscard]] std::optional<std::size_t> pointNear(const QPoint& at) const;
    // What hovering a point says: its point, whether it is on the front, its cost and result.
    [[nodiscard]] QString pointToolTip(std::size_t index) const;

    [[nodiscard]] QSize sizeHint() const override { return {640, 280}; }

Q_SIGNALS:
    void pointActivated(qint64 point);
    // A point was clicked, to select everywhere.
    void pointClicked(qint64 point);
    // A point picked for comparison from its context menu.
    void compareRequested(qint64 point);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    bool event(QEvent* event) override;

private:
    [[nodiscard]] QRect plotRect() const;
    void drawCloud();
    void findMarked();
    // Of `count` points, the index_of(k)-th, the one nearest `at` within a few pixels.
    [[nodiscard]] std::optional<std::size_t> nearest(const QPoint& at, std::size_t count,
                                                     const std::function<std::size_t(std::size_t)>& index_of) const;

    std::optional<SweepPareto> pareto_;
    GridMetric cost_;
    GridMetric result_;
    QString message_;
    bool dimmed_ = false;
    QString compare_text_;
    std::optional<std::int64_t> marked_point_;
    std::optional<std::size_t> marked_index_;  // of marked_point_ in pareto_->points, when it is there
    double cost_low_ = 0.0;
    double cost_high_ = 0.0;
    double result_low_ = 0.0;
    double result_high_ = 0.0;
    QRect data_rect_;  // where the points go (drawCloud measures it)
    QImage cloud_;     // every point, drawn for the current data, size and palette
};

}  // namespace parasight::gui
