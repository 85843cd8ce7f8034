#pragma once
// Two stored runs picked anywhere for comparison — a heatmap cell, a row of points, a dot of the Pareto front, a row
// of the history, the window's own run: the first pick is A (said in the status bar), the next is B and asks for the
// comparison, which the History tab shows. The window owns one; each view's "Compare…" action reads its text here,
// so every menu says the same thing ("Compare with run:33 (A)").

#include <QObject>
#include <QString>

#include <optional>

namespace parasight::gui {

class ComparisonChoice : public QObject {
    Q_OBJECT

public:
    explicit ComparisonChoice(QObject* parent = nullptr) : QObject(parent) {}

    // What a "Compare…" action says: "Mark for Comparison (A)" before A is picked, "Compare with run:33 (A)" after.
    [[nodiscard]] QString actionText() const;
    [[nodiscard]] std::optional<qint64> a() const noexcept { return a_; }
    [[nodiscard]] const QString& aLabel() const noexcept { return a_label_; }

    // Picks stored run `run` (`label` names it: "sweep:1 point 24"): A when none is, else B — A and B are then
    // compared and A is forgotten. Picking A again forgets it.
    void pick(qint64 run, const QString& label);
    void forget();

Q_SIGNALS:
    // A was picked or forgotten.
    void changed();
    void compareRequested(qint64 a, qint64 b);

private:
    std::optional<qint64> a_;
    QString a_label_;
};

}  // namespace parasight::gui
