#include "sweeps/axis_picker.h"

#include <QComboBox>
#include <QCompleter>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>

namespace parasight::gui {

AxisPicker::AxisPicker(QWidget* parent) : QWidget(parent) {
    field_ = new QComboBox(this);
    field_->setEditable(true);
    field_->setInsertPolicy(QComboBox::NoInsert);
    field_->setAccessibleName(tr("Field to sweep"));
    field_->setToolTip(tr("A field of the scenario: type part of its path to search"));
    field_->lineEdit()->setPlaceholderText(tr("field, e.g. parallelism.tp"));
    field_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    field_->setMinimumContentsLength(22);
    field_->completer()->setFilterMode(Qt::MatchContains);
    field_->completer()->setCompletionMode(QCompleter::PopupCompletion);
    values_ = new QLineEdit(this);
    values_->setAccessibleName(tr("Values to sweep"));
    add_ = new QPushButton(tr("&Add Axis"), this);
    add_->setToolTip(tr("Write the axis into the box above (in place of the field's line, if it has one)"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(field_, 2);
    layout->addWidget(values_, 3);
    layout->addWidget(add_);
    connect(field_, &QComboBox::currentTextChanged, this, &AxisPicker::updateHint);
    connect(values_, &QLineEdit::textChanged, this, &AxisPicker::updateHint);
    const auto add = [this] {
        if (!add_->isEnabled()) return;
        Q_EMIT axisWritten(field_->currentText().trimmed() + QLatin1Char('=') + values_->text().trimmed());
        values_->clear();
    };
    connect(add_, &QPushButton::clicked, this, add);
    connect(values_, &QLineEdit::returnPressed, this, add);
    updateHint();
}

void AxisPicker::setScenarioValues(const std::vector<AxisValue>& values) {
    const QString chosen = field_->currentText();
    now_.clear();
    QStringList paths;
    for (const AxisValue& value : values) {
        const QString path = QString::fromStdString(value.path);
        paths.append(path);
        now_.insert(path, QString::fromStdString(value.value));
    }
    {
        const QSignalBlocker quiet(field_);
        field_->clear();
        field_->addItems(paths);
        field_->setCurrentIndex(-1);
        field_->setEditText(chosen);
    }
    updateHint();
}

void AxisPicker::updateHint() {
    const QString field = field_->currentText().trimmed();
    const auto now = now_.constFind(field);
    values_->setPlaceholderText(now != now_.constEnd()
                                    ? tr("values (now %1): 1,2,4 · 1..64 x2 · 100..400 GB/s +50 GB/s").arg(*now)
                                    : tr("values: 1,2,4 · 1..64 x2 · 100..400 GB/s +50 GB/s"));
    add_->setEnabled(!field.isEmpty() && !values_->text().trimmed().isEmpty());
}

QString with_axis_line(const QString& axes, const QString& line) {
    const QString path = line.section(QLatin1Char('='), 0, 0).trimmed();
    QStringList lines = axes.split(QLatin1Char('\n'));
    while (!lines.isEmpty() && lines.back().trimmed().isEmpty()) lines.removeLast();
    for (QString& existing : lines) {
        if (existing.section(QLatin1Char('='), 0, 0).trimmed() == path && existing.contains(QLatin1Char('='))) {
            existing = line;
            return lines.join(QLatin1Char('\n'));
        }
    }
    lines.append(line);
    return lines.join(QLatin1Char('\n'));
}

}  // namespace parasight::gui
