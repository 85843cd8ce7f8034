#include "main_window/placeholder_page.h"

#include <QGridLayout>
#include <QLabel>

namespace parasight::gui {

namespace {
// Wide enough for a sentence per line at the usual font sizes, narrow enough to read.
constexpr int text_width_px = 560;
}  // namespace

PlaceholderPage::PlaceholderPage(const QString& title, const QString& explanation, QWidget* parent)
    : QWidget(parent) {
    auto* heading = new QLabel(QStringLiteral("<h2>%1</h2>").arg(title.toHtmlEscaped()), this);
    heading->setAlignment(Qt::AlignCenter);
    auto* text = new QLabel(explanation, this);
    text->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    text->setWordWrap(true);
    // A fixed width lets the grid ask the word-wrapped label for its height at that width.
    text->setFixedWidth(text_width_px);
    auto* layout = new QGridLayout(this);
    layout->setRowStretch(0, 1);
    layout->setRowStretch(3, 2);
    layout->setColumnStretch(0, 1);
    layout->setColumnStretch(2, 1);
    layout->addWidget(heading, 1, 1);
    layout->addWidget(text, 2, 1);
}

}  // namespace parasight::gui
