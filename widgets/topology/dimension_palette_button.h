#pragma once
// A button of the Topology tab's palette: a click adds its kind of dimension around the others, and so does dragging
// it onto the canvas (the drag carries dimension_mime_type with the kind as a scenario file names it).

#include "topology/dimension.h"

#include <QPushButton>

namespace parasight::gui {

inline constexpr char dimension_mime_type[] = "application/x-parasight-dimension-kind";

class DimensionPaletteButton : public QPushButton {
    Q_OBJECT

public:
    DimensionPaletteButton(DimensionKind kind, const QString& text, QWidget* parent = nullptr);

    [[nodiscard]] DimensionKind kind() const noexcept { return kind_; }

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    DimensionKind kind_;
    QPoint press_at_;
};

}  // namespace parasight::gui
