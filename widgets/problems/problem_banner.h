#pragma once
// A red line above a view saying what in the scenario keeps it from being right: the document's problems about the
// fields the view edits (those whose path starts with one of `prefixes`), each as the loader words it; hidden when
// there are none.

#include "diagnostics/diagnostic.h"

#include <QLabel>
#include <QStringList>

namespace parasight::gui {

class ProblemBanner : public QLabel {
    Q_OBJECT

public:
    ProblemBanner(QStringList prefixes, QWidget* parent = nullptr);

    void showProblems(const Diagnostics& problems);
    // A message of the view's own in the same place (hidden again by the next showProblems without problems).
    void showText(const QString& text);
    // What it says; empty when hidden.
    [[nodiscard]] QString shownText() const;

private:
    QStringList prefixes_;
};

}  // namespace parasight::gui
