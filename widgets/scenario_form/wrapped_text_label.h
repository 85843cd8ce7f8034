#pragma once
// A word-wrapped label that reserves the height its text needs at the width it is given. A form layout works out a
// field's height for a width that can differ by a pixel from the width it then assigns; a problem that wrapped to one
// more line at the assigned width was cut at both ends and overlapped the next row.

#include <QLabel>

namespace parasight::gui {

class WrappedTextLabel : public QLabel {
    Q_OBJECT

public:
    explicit WrappedTextLabel(QWidget* parent = nullptr);

    // Shows `text` (hides the label when it is empty) and reserves the height it needs at the present width.
    void showText(const QString& text);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void reserveHeight();
};

}  // namespace parasight::gui
