#pragma once
// The pipeline at a glance, above the strategy tree: a segment per stage, as wide as its layers, labelled with its
// number and layer count and, after a run, shaded by its compute time (the busiest stage darkest). Dragging from one
// stage and letting go over another moves one layer between them: the first stage's extra layer to the last, in one
// gesture. Dragging the border between two neighbours (a handle: the cursor says so) moves as many layers across it
// as the drag covers layer widths.

#include <QWidget>

#include <vector>

namespace parasight::gui {

class StageBar : public QWidget {
    Q_OBJECT

public:
    explicit StageBar(QWidget* parent = nullptr);

    // Layers per stage, and compute seconds per stage after a run (empty: none).
    void showStages(std::vector<int> layers, std::vector<double> compute_s);
    [[nodiscard]] const std::vector<int>& layers() const noexcept { return layers_; }
    // The stage drawn at x (in the widget), or -1.
    [[nodiscard]] int stageAt(double x) const;
    // The middle of stage `stage`'s segment, in the widget.
    [[nodiscard]] QPoint centerOf(int stage) const;
    // The middle of the border between stage `stage` and the next, in the widget.
    [[nodiscard]] QPoint borderOf(int stage) const;
    // How wide one layer is drawn.
    [[nodiscard]] double layerWidth() const;
    [[nodiscard]] QSize sizeHint() const override;
    [[nodiscard]] QSize minimumSizeHint() const override;

Q_SIGNALS:
    void layersMoveRequested(int from_stage, int to_stage, int count);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    [[nodiscard]] double segmentLeft(int stage) const;
    [[nodiscard]] double segmentWidth(int stage) const;
    // The border after stage `stage` (between it and the next) within a few pixels of x, or -1.
    [[nodiscard]] int borderAt(double x) const;

    std::vector<int> layers_;
    std::vector<double> compute_s_;
    int dragged_from_ = -1;
    int dragged_border_ = -1;
    double border_pressed_x_ = 0.0;
    int hovered_ = -1;
};

}  // namespace parasight::gui
