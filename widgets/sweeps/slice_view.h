#pragma once
// A stored sweep seen from its best point (store/sweep_slices.h) as small multiples: for each axis, the metric at each
// of its values with the other axes held at the best point's values — a line through the points that fit, the best
// one ringed, the values that do not fit marked with their status — and under each, what one step off the best costs.
// Custom-painted: a handful of points per axis, whatever the sweep's size.

#include "store/sweep_slices.h"

#include <QString>
#include <QWidget>

#include <optional>

namespace parasight::gui {

class SliceView : public QWidget {
    Q_OBJECT

public:
    explicit SliceView(QWidget* parent = nullptr);

    void showSlices(SweepSlices slices, const GridMetric& metric);
    void showMessage(const QString& message);
    [[nodiscard]] const std::optional<SweepSlices>& slices() const noexcept { return slices_; }
    // Where slice `k` is drawn, and the point of its value `v`.
    [[nodiscard]] QRect panelRect(std::size_t k) const;
    [[nodiscard]] QPoint pointAt(std::size_t k, std::size_t v) const;
    // The lines under each panel, as drawn.
    [[nodiscard]] QStringList captions(std::size_t k) const;

    [[nodiscard]] QSize sizeHint() const override { return {640, 260}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    [[nodiscard]] int columns() const;
    [[nodiscard]] QRect plotRect(std::size_t k) const;

    std::optional<SweepSlices> slices_;
    GridMetric metric_;
    QString message_;
};

}  // namespace parasight::gui
