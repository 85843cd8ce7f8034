#include "style/quantity_text.h"

namespace parasight::gui {

QString quantity_text(double value, units::Dimension dimension, bool binary) {
    QString text = QString::fromStdString(units::format_readable(value, dimension, 4, binary));
    if (dimension == units::Dimension::time && text.endsWith(QStringLiteral(" us"))) {
        text.replace(text.size() - 2, 1, QChar(0x00b5));  // "us" → "µs"
    }
    return text;
}

QString bytes_text(double bytes) { return quantity_text(bytes, units::Dimension::size, true); }

QString time_text(double seconds) { return quantity_text(seconds, units::Dimension::time); }

QString fixed_text(double value, int decimals) { return QString::fromStdString(units::format_fixed(value, decimals)); }

QString percent_text(double percent) { return fixed_text(percent, 1) + QLatin1Char('%'); }

}  // namespace parasight::gui
