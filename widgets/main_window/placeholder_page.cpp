#include "main_window/placeholder_page.h"

#include <QBoxLayout>
#include <QLabel>

namespace parasight::gui {

namespace {
// At most this wide: a sentence per line at the usual font sizes, narrow enough to read.
constexpr int text_width_px = 560;
}  // namespace

PlaceholderPage::PlaceholderPage(const QString& title, const QString& explanation, QWidget* parent)
    : QWidget(parent) {
    auto* heading = new QLabel(QStringLiteral("<h2>%1</h2>").arg(title.toHtmlEscaped()), this);
    heading->setAlignment(Qt::AlignCenter);
    auto* text = new QLabel(explanation, this);
    text->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    text->setWordWrap(true);
    text->setMaximumWidth(text_width_px);
    // The text takes up to its width and the spacers the rest; in a narrow window it wraps onto more lines.
    auto* row = new QHBoxLayout;
    row->addStretch(1);
    row->addWidget(text, 3);
    row->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addStretch(1);
    layout->addWidget(heading);
    layout->addLayout(row);
    layout->addStretch(2);
}

}  // namespace parasight::gui
