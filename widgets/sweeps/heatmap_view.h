#pragma once
// A stored sweep's grid (store/sweep_grid.h) as a heatmap: one axis across, one down, each cell a real point's value
// coloured on viridis with the better end yellow, the value written in the cell when it fits (dark or light text,
// whichever reads on the colour), cells without a fitting point hatched grey with their status (the stored reason on
// hover), the best cell outlined, and a legend of the scale in the metric's units. The scale is linear, logarithmic,
// or the ratio to a baseline cell (chosen from a cell's context menu; by default the first cell with a value). Each
// cell can carry a glyph of where its point's iteration went — a thin stacked bar of compute, exposed communication
// by group, bubble and idle — to say why it is slow. Double-clicking a cell names its point, for the window to open.

#include "store/sweep_grid.h"

#include <QString>
#include <QWidget>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

class QPainter;

namespace parasight::gui {

enum class HeatmapScale : std::uint8_t { linear, log, ratio };

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

    // linear: colours spread evenly from the worst value to the best; log: by the values' logarithm (linear when a
    // value is not above 0, and the legend says so); ratio: as linear, each cell written as its value over the
    // baseline cell's ("1.25×").
    void setScale(HeatmapScale scale);
    [[nodiscard]] HeatmapScale scale() const noexcept { return scale_; }
    // The cell the ratios are taken to; a cell without a value is refused (false).
    bool setBaseline(std::size_t x, std::size_t y);
    [[nodiscard]] std::optional<std::size_t> baseline() const noexcept { return baseline_; }
    // Draws each cell's glyph of its point's time breakdown (where the cell is large enough).
    void setGlyphsShown(bool shown);
    [[nodiscard]] bool glyphsShown() const noexcept { return glyphs_; }
    // A cell marked (outlined in the highlight colour): the cell of a point selected elsewhere; none to clear.
    void setMarkedCell(std::optional<std::pair<std::size_t, std::size_t>> cell);
    [[nodiscard]] const std::optional<std::pair<std::size_t, std::size_t>>& markedCell() const noexcept {
        return marked_;
    }
    // What the context menu's compare action says (run/comparison_choice.h); empty: no such action.
    void setCompareText(const QString& text) { compare_text_ = text; }
    // Where a cell's glyph is drawn; empty when it has none or the cell is too small.
    [[nodiscard]] QRect glyphRect(std::size_t x, std::size_t y) const;
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
    // A cell was clicked: the point it shows, to select everywhere (never sent for an empty cell).
    void pointClicked(qint64 point);
    // A cell's point picked for comparison from its context menu.
    void compareRequested(qint64 point);
    // A cell was made the baseline of the ratios from its context menu.
    void baselineChosen();

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    bool event(QEvent* event) override;

private:
    [[nodiscard]] QRect plotRect() const;
    // A legend end's label: the best value ("19.19 s best") or the worst, or its ratio to the baseline.
    [[nodiscard]] QString legendText(bool best) const;

    std::optional<SweepGrid> grid_;
    GridMetric metric_;
    QString x_name_;
    QString y_name_;
    QString title_;
    QString message_;
    double low_ = 0.0;   // the values' range
    double high_ = 0.0;
    HeatmapScale scale_ = HeatmapScale::linear;
    std::optional<std::size_t> baseline_;
    bool glyphs_ = false;
    std::optional<std::pair<std::size_t, std::size_t>> marked_;
    QString compare_text_;

    // Whether the log scale is in force: asked for, and every value above 0.
    [[nodiscard]] bool logarithmic() const noexcept;
    // Which breakdown parts some cell's glyph shows, for the key under the map.
    [[nodiscard]] std::vector<int> glyphParts() const;
    void paintGlyph(QPainter& painter, const GridCell& cell, const QRect& bar, const QColor& fill) const;
};

}  // namespace parasight::gui
