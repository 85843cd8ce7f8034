#include "style/appearance.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

namespace parasight::gui {

namespace {

QPalette dark_palette() {
    const QColor window(0x2b, 0x2b, 0x2e);
    const QColor base(0x1f, 0x1f, 0x22);
    const QColor text(0xe6, 0xe6, 0xe6);
    const QColor disabled_text(0x80, 0x80, 0x84);
    const QColor highlight(0x3d, 0x7a, 0xc7);
    QPalette palette;
    palette.setColor(QPalette::Window, window);
    palette.setColor(QPalette::WindowText, text);
    palette.setColor(QPalette::Base, base);
    palette.setColor(QPalette::AlternateBase, QColor(0x29, 0x29, 0x2d));
    palette.setColor(QPalette::ToolTipBase, QColor(0x38, 0x38, 0x3c));
    palette.setColor(QPalette::ToolTipText, text);
    palette.setColor(QPalette::PlaceholderText, disabled_text);
    palette.setColor(QPalette::Text, text);
    palette.setColor(QPalette::Button, QColor(0x35, 0x35, 0x39));
    palette.setColor(QPalette::ButtonText, text);
    palette.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    palette.setColor(QPalette::Light, QColor(0x45, 0x45, 0x4a));
    palette.setColor(QPalette::Midlight, QColor(0x3a, 0x3a, 0x3f));
    palette.setColor(QPalette::Mid, QColor(0x25, 0x25, 0x28));
    palette.setColor(QPalette::Dark, QColor(0x18, 0x18, 0x1a));
    palette.setColor(QPalette::Shadow, QColor(0x0c, 0x0c, 0x0d));
    palette.setColor(QPalette::Highlight, highlight);
    palette.setColor(QPalette::HighlightedText, Qt::white);
    palette.setColor(QPalette::Link, QColor(0x6c, 0xa8, 0xf0));
    palette.setColor(QPalette::LinkVisited, QColor(0xb0, 0x8c, 0xe8));
    for (const auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText}) {
        palette.setColor(QPalette::Disabled, role, disabled_text);
    }
    palette.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x50, 0x50, 0x55));
    return palette;
}

struct Named {
    Appearance appearance;
    const char* name;
};
constexpr Named names[] = {{Appearance::system, "system"}, {Appearance::light, "light"}, {Appearance::dark, "dark"}};

}  // namespace

QStringList appearance_names() {
    QStringList list;
    for (const Named& named : names) list << QString::fromLatin1(named.name);
    return list;
}

std::optional<Appearance> appearance_from_name(const QString& name) {
    for (const Named& named : names) {
        if (name == QLatin1String(named.name)) return named.appearance;
    }
    return std::nullopt;
}

QString appearance_name(Appearance appearance) {
    for (const Named& named : names) {
        if (named.appearance == appearance) return QString::fromLatin1(named.name);
    }
    return QStringLiteral("system");
}

void apply_appearance(Appearance appearance) {
    // The style the application started with, kept to return to "system".
    static const QString system_style = QApplication::style()->name();
    switch (appearance) {
    case Appearance::system:
        QApplication::setStyle(QStyleFactory::create(system_style));
        QApplication::setPalette(QPalette());  // resolves nothing: the platform theme's colours
        break;
    case Appearance::light:
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(QApplication::style()->standardPalette());
        break;
    case Appearance::dark:
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(dark_palette());
        break;
    }
}

QPalette high_contrast_palette(const QPalette& palette) {
    const bool dark = palette.color(QPalette::Text).lightness() > palette.color(QPalette::Base).lightness();
    const QColor ground = dark ? Qt::black : Qt::white;
    const QColor ink = dark ? Qt::white : Qt::black;
    // The window and buttons a shade off the ground, so that a field (on the ground) keeps its edges.
    const QColor window = dark ? QColor(0x14, 0x14, 0x14) : QColor(0xf0, 0xf0, 0xf0);
    QPalette contrast = palette;
    for (const auto role : {QPalette::Base, QPalette::AlternateBase, QPalette::ToolTipBase}) {
        contrast.setColor(QPalette::Active, role, ground);
        contrast.setColor(QPalette::Inactive, role, ground);
    }
    for (const auto role : {QPalette::Window, QPalette::Button}) {
        contrast.setColor(QPalette::Active, role, window);
        contrast.setColor(QPalette::Inactive, role, window);
    }
    for (const auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText, QPalette::ToolTipText}) {
        contrast.setColor(QPalette::Active, role, ink);
        contrast.setColor(QPalette::Inactive, role, ink);
        contrast.setColor(QPalette::Disabled, role, dark ? QColor(0xa0, 0xa0, 0xa0) : QColor(0x60, 0x60, 0x60));
    }
    const QColor highlight = dark ? QColor(0xff, 0xd4, 0x00) : QColor(0x00, 0x3c, 0xb4);
    contrast.setColor(QPalette::Highlight, highlight);
    contrast.setColor(QPalette::HighlightedText, dark ? Qt::black : Qt::white);
    contrast.setColor(QPalette::Link, dark ? QColor(0x7c, 0xc4, 0xff) : QColor(0x00, 0x3c, 0xb4));
    contrast.setColor(QPalette::PlaceholderText, dark ? QColor(0xb0, 0xb0, 0xb0) : QColor(0x50, 0x50, 0x50));
    return contrast;
}

}  // namespace parasight::gui
