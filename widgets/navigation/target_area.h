#pragma once
// Where a view draws a target (target/target.h): a widget and a rectangle in its coordinates, for the spotlight to
// mark once the view has revealed it.

#include <QRect>
#include <QWidget>

namespace parasight::gui {

struct TargetArea {
    QWidget* widget = nullptr;
    QRect rect;  // in `widget`'s coordinates
};

// The whole of `widget`.
[[nodiscard]] inline TargetArea whole(QWidget* widget) { return TargetArea{widget, widget->rect()}; }

}  // namespace parasight::gui
