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

    // Shows `text` (hides the label when it is empty) and reserves the height it needs at the present width. A long
    // dotted name in it ("cluster.memory_system.host.link_bandwidth") may break after its dots and underscores,
    // where it would otherwise hold the label, and the form, wider than its dock.
    void showText(const QString& text);
    // The text as given, without the break opportunities added for wrapping.
    [[nodiscard]] const QString& plainText() const noexcept { return plain_; }

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void reserveHeight();

    QString plain_;
};

}  // namespace parasight::gui
