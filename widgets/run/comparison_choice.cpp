#include "run/comparison_choice.h"

namespace parasight::gui {

QString ComparisonChoice::actionText() const {
    return a_ ? tr("Compare with %1 (A)").arg(a_label_) : tr("Mark for Comparison (A)");
}

void ComparisonChoice::pick(qint64 run, const QString& label) {
    if (!a_) {
        a_ = run;
        a_label_ = label;
        Q_EMIT changed();
        return;
    }
    const qint64 a = *a_;
    forget();
    if (a != run) Q_EMIT compareRequested(a, run);
}

void ComparisonChoice::forget() {
    if (!a_) return;
    a_.reset();
    a_label_.clear();
    Q_EMIT changed();
}

}  // namespace parasight::gui
