#pragma once
// The Sweeps tab's way to write an axis without knowing the paths: a field picked from every value the edited
// scenario has (sweep/sweep_point.h's scalar_values, searched as one types: "bandw" finds each topology dimension's
// bandwidth), its current value shown, the values typed in the command line's syntax (`1,2,4,8`, `1..64 x2`,
// `100..400 GB/s +50 GB/s`), and Add Axis, which hands over the line `path=values` for the axes box.

#include "sweep/sweep_point.h"

#include <QHash>
#include <QWidget>

class QComboBox;
class QLineEdit;
class QPushButton;

namespace parasight::gui {

class AxisPicker : public QWidget {
    Q_OBJECT

public:
    explicit AxisPicker(QWidget* parent = nullptr);

    // The fields to offer and their values now; the field chosen stays when it is still there.
    void setScenarioValues(const std::vector<AxisValue>& values);
    [[nodiscard]] QComboBox* fieldBox() const noexcept { return field_; }
    [[nodiscard]] QLineEdit* valuesEdit() const noexcept { return values_; }
    [[nodiscard]] QPushButton* addButton() const noexcept { return add_; }

Q_SIGNALS:
    // Add Axis: "parallelism.tp=1,2,4,8".
    void axisWritten(const QString& line);

private:
    void updateHint();

    QComboBox* field_ = nullptr;
    QLineEdit* values_ = nullptr;
    QPushButton* add_ = nullptr;
    QHash<QString, QString> now_;  // a field's value in the scenario
};

// The axes text with `line` in it: in place of the line of the same path, or appended.
[[nodiscard]] QString with_axis_line(const QString& axes, const QString& line);

}  // namespace parasight::gui
