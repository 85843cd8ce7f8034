#pragma once
// A stored sweep's grid (store/sweep_grid.h) as a heatmap: one axis across, one down, each cell a real point's value
// coloured on viridis with the better end yellow, the value written in the cell when it fits (dark or light text,
// whichever reads on the colour), cells without a fitting point hatched grey with their status (the stored reason on
// hover), the best cell outlined, and a legend of the scale in the metric's units. Double-clicking a cell names its
// point, for the window to open it.

#include "store/sweep_grid.h"

#include <QString>
#include <QWidget>

#include <optional>
#include <utility>

namespace parasight::gui {

class HeatmapView : public QWidget {
    Q_OBJECT

public:
    explicit HeatmapView(QWidget* parent = nullptr);

    // Shows `grid` of `metric`, its axes named `x_name` across and `y_name` down; `title` says what the cells are
    // (the metric, and the other axes fixed or aggregated by which rule).
    void showGrid(SweepGrid grid, const GridMetric& metric, const QString& x_name, const QString& y_name,
                  const QString& title);
    // No grid; `message` says why.
    void showMessage(const QString& message);

    [[nodiscard]] const std::optional<SweepGrid>& grid() const noexcept { return grid_; }
    // The colour of a value on the scale of the grid shown: viridis, the best value yellow, the worst dark purple.
    [[nodiscard]] QColor colorOf(double value) const;
    // What a cell says: its value in the metric's units, or its status ("OOM", "OOM (est.)", "invalid", "failed").
    [[nodiscard]] QString cellText(const GridCell& cell) const;
    // What hovering a cell says: its axis values, value or status, point, and reason.
    [[nodiscard]] QString cellToolTip(std::size_t x, std::size_t y) const;
    // Where cell (x, y) is drawn; the cell under a point, if any.
    [[nodiscard]] QRect cellRect(std::size_t x, std::size_t y) const;
    [[nodiscard]] std::optional<std::pair<std::size_t, std::size_t>> cellAt(const QPoint& point) const;

    [[nodiscard]] QSize sizeHint() const override { return {480, 240}; }

Q_SIGNALS:
    // A cell was double-clicked: the point it shows (-1 for an empty cell is never sent).
    void pointActivated(qint64 point);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    [[nodiscard]] QRect plotRect() const;

    std::optional<SweepGrid> grid_;
    GridMetric metric_;
    QString x_name_;
    QString y_name_;
    QString title_;
    QString message_;
    double low_ = 0.0;   // the values' range
    double high_ = 0.0;
};

}  // namespace parasight::gui
