#include "scenario_form/wrapped_text_label.h"

namespace parasight::gui {

WrappedTextLabel::WrappedTextLabel(QWidget* parent) : QLabel(parent) { setWordWrap(true); }

void WrappedTextLabel::showText(const QString& text) {
    setText(text);
    setVisible(!text.isEmpty());
    reserveHeight();
}

void WrappedTextLabel::resizeEvent(QResizeEvent* event) {
    QLabel::resizeEvent(event);
    reserveHeight();
}

void WrappedTextLabel::reserveHeight() {
    // The layout bounds a field's height for any width below by its minimum height, so the next pass gives the
    // label at least this much; a wider label reserves less again when it is resized.
    const int needed_px = heightForWidth(width());
    if (needed_px > 0 && needed_px != minimumHeight()) setMinimumHeight(needed_px);
}

}  // namespace parasight::gui
