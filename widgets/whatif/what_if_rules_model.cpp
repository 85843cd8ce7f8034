#include "whatif/what_if_rules_model.h"

#include "whatif/what_if_fields.h"

#include <QColor>

namespace parasight::gui {

namespace {

// Translucent, so that the cell reads in a light and a dark palette alike.
const QColor problem_background(220, 50, 47, 70);

}  // namespace

namespace {

std::vector<std::vector<ScenarioField>> rule_fields(const Scenario& scenario, WhatIfList list) {
    std::vector<std::vector<ScenarioField>> rows;
    for (int row = 0; row < what_if_rule_count(scenario.what_if, list); ++row) {
        rows.push_back(what_if_rule_fields(scenario, list, row));
    }
    return rows;
}

}  // namespace

WhatIfRulesModel::WhatIfRulesModel(ScenarioDocument& document, WhatIfList list, QObject* parent)
    : QAbstractTableModel(parent), document_(document), list_(list) {
    rows_ = rule_fields(document_.scenario(), list_);
    header_ = what_if_rule_fields(document_.scenario(), list_, 0);
    connect(&document_, &ScenarioDocument::scenarioChanged, this, &WhatIfRulesModel::refresh);
}

int WhatIfRulesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int WhatIfRulesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(header_.size());
}

void WhatIfRulesModel::refresh() {
    std::vector<std::vector<ScenarioField>> rows = rule_fields(document_.scenario(), list_);
    std::vector<ScenarioField> header = what_if_rule_fields(document_.scenario(), list_, 0);
    bool same_choices = header.size() == header_.size();
    for (std::size_t c = 0; same_choices && c < header.size(); ++c) {
        same_choices = header[c].choices == header_[c].choices;
    }
    if (rows.size() != rows_.size() || !same_choices) {
        beginResetModel();
        rows_ = std::move(rows);
        header_ = std::move(header);
        endResetModel();
        return;
    }
    rows_ = std::move(rows);
    if (!rows_.empty()) Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

const ScenarioField& WhatIfRulesModel::field(const QModelIndex& index) const {
    return rows_.at(static_cast<std::size_t>(index.row())).at(static_cast<std::size_t>(index.column()));
}

QString WhatIfRulesModel::problemsOf(const ScenarioField& field) const {
    QStringList lines;
    for (const Diagnostic& problem : document_.problems()) {
        if (path_belongs_to(problem.path, field.path)) lines << QString::fromStdString(problem.message);
    }
    return lines.join(QLatin1Char('\n'));
}

QVariant WhatIfRulesModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const ScenarioField& field = this->field(index);
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole: {
        const QString text = field.read(document_.scenario());
        // An empty selector shows what leaving it out means, greyed by the view's placeholder style.
        return text.isEmpty() && role == Qt::DisplayRole ? field.placeholder : text;
    }
    case Qt::ForegroundRole:
        if (field.read(document_.scenario()).isEmpty()) return QColor(128, 128, 128);
        return {};
    case Qt::ToolTipRole: {
        const QString problems = problemsOf(field);
        return problems.isEmpty() ? headerData(index.column(), Qt::Horizontal, Qt::ToolTipRole) : problems;
    }
    case Qt::BackgroundRole:
        if (!problemsOf(field).isEmpty()) return problem_background;
        return {};
    case ChoicesRole: return field.choices;
    case PlaceholderRole: return field.placeholder;
    case ProblemRole: return problemsOf(field);
    default: return {};
    }
}

QVariant WhatIfRulesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Vertical) {
        if (role == Qt::DisplayRole && section >= 0 && section < rowCount()) return section + 1;
        return {};
    }
    if (section < 0 || section >= columnCount()) return {};
    const ScenarioField& field = header_[static_cast<std::size_t>(section)];
    if (role == Qt::DisplayRole) return field.label;
    if (role == Qt::ToolTipRole) {
        // The key as the file writes it: "delay" of "what_if.collective_delays[0].delay".
        const QString key = field.path.section(QLatin1Char('.'), -1);
        return tr("%1 in the scenario file's what_if.%2").arg(key, QString::fromStdString(what_if_list_key(list_)));
    }
    return {};
}

Qt::ItemFlags WhatIfRulesModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsEditable;
}

bool WhatIfRulesModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole ||
        !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return false;
    }
    const ScenarioField field = this->field(index);  // a copy: the edit makes the rows again
    const QString text = value.toString();
    Scenario trial = document_.scenario();
    if (const auto unreadable = field.write(trial, text)) {
        Q_EMIT editRefused(QString::fromStdString(*unreadable));
        return false;
    }
    if (trial == document_.scenario()) return true;
    document_.edit(tr("Change %1 of what-if rule %2").arg(field.label).arg(index.row() + 1), field.path,
                   [&trial](Scenario& scenario) { scenario = trial; });
    return true;
}

void WhatIfRulesModel::addRule() {
    document_.edit(tr("Add a what-if rule"), QString(),
                   [this](Scenario& scenario) { add_what_if_rule(scenario, list_); });
}

bool WhatIfRulesModel::removeRule(int row) {
    if (row < 0 || row >= rowCount()) return false;
    document_.edit(tr("Remove what-if rule %1").arg(row + 1), QString(),
                   [this, row](Scenario& scenario) { (void)remove_what_if_rule(scenario, list_, row); });
    return true;
}

QModelIndex WhatIfRulesModel::indexOfPath(const std::string& path) const {
    for (int row = 0; row < rowCount(); ++row) {
        const std::vector<ScenarioField>& fields = rows_[static_cast<std::size_t>(row)];
        for (std::size_t column = 0; column < fields.size(); ++column) {
            if (path_belongs_to(path, fields[column].path)) return index(row, static_cast<int>(column));
        }
        if (path_belongs_to(path, QString::fromStdString(what_if_rule_path(list_, row)))) return index(row, 0);
    }
    return {};
}

}  // namespace parasight::gui
