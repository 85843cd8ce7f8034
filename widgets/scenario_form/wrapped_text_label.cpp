#include "scenario_form/wrapped_text_label.h"

namespace parasight::gui {

WrappedTextLabel::WrappedTextLabel(QWidget* parent) : QLabel(parent) { setWordWrap(true); }

void WrappedTextLabel::showText(const QString& text) {
    plain_ = text;
    QString breakable;
    breakable.reserve(text.size() + text.size() / 8);
    for (qsizetype i = 0; i < text.size(); ++i) {
        breakable += text[i];
        const bool inside_a_word = i + 1 < text.size() && !text[i + 1].isSpace();
        if ((text[i] == u'.' || text[i] == u'_') && inside_a_word) breakable += QChar(0x200B);  // zero-width space
    }
    setText(breakable);
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
