#include "problems/problem_banner.h"

#include "style/activity_colors.h"

namespace parasight::gui {

ProblemBanner::ProblemBanner(QStringList prefixes, QWidget* parent) : QLabel(parent), prefixes_(std::move(prefixes)) {
    setWordWrap(true);
    setTextFormat(Qt::PlainText);
    QPalette red = palette();
    red.setColor(QPalette::WindowText, over_capacity_color());
    setPalette(red);
    hide();
}

void ProblemBanner::showProblems(const Diagnostics& problems) {
    QStringList reasons;
    for (const Diagnostic& problem : problems) {
        const QString path = QString::fromStdString(problem.path);
        if (std::any_of(prefixes_.begin(), prefixes_.end(), [&](const QString& prefix) { return path.startsWith(prefix); })) {
            reasons << QString::fromStdString(problem.to_string());
        }
    }
    setText(reasons.join(u'\n'));
    setVisible(!reasons.isEmpty());
}

void ProblemBanner::showText(const QString& text) {
    setText(text);
    setVisible(!text.isEmpty());
}

QString ProblemBanner::shownText() const { return isHidden() ? QString() : text(); }

}  // namespace parasight::gui
