#include "history/run_comparison_model.h"

#include "export/run_column_text.h"
#include "store/stored_table.h"

#include <QFont>

namespace parasight::gui {
namespace {

QString text_of(const std::string& text) { return QString::fromStdString(text); }

// A stored value in its column's units: "24.02 ms", "8", "ok".
QString value_text(const std::string& column, const StoredValue& value) {
    const std::optional<double> number = stored_number(value);
    if (!number || std::holds_alternative<std::string>(value)) return text_of(stored_text(value));
    if (is_counted_run_column(column)) return text_of(stored_text(value));
    return text_of(run_column_text(column, *number));
}

}  // namespace

RunComparisonModel::RunComparisonModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunComparisonModel::setComparison(RunComparison comparison) {
    beginResetModel();
    comparison_ = std::move(comparison);
    shown_columns_.clear();
    for (std::size_t c = 0; c < comparison_->columns.size(); ++c) {
        const ComparedColumn& column = comparison_->columns[c];
        if (column.name == "scenario_hash" || column.name == "created_at") continue;
        const bool empty = std::holds_alternative<std::monostate>(column.a) &&
                           std::holds_alternative<std::monostate>(column.b);
        if (!empty) shown_columns_.push_back(c);
    }
    endResetModel();
}

void RunComparisonModel::clear() {
    beginResetModel();
    comparison_.reset();
    shown_columns_.clear();
    endResetModel();
}

int RunComparisonModel::inputRows() const noexcept {
    return comparison_ ? static_cast<int>(comparison_->inputs.size()) : 0;
}

int RunComparisonModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !comparison_) return 0;
    return static_cast<int>(comparison_->inputs.size() + shown_columns_.size());
}

int RunComparisonModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : column_count; }

QString RunComparisonModel::cellText(int row, int column) const {
    if (row < inputRows()) {
        const ScenarioDifference& input = comparison_->inputs[static_cast<std::size_t>(row)];
        switch (column) {
        case name_column: return text_of(input.path);
        case a_column: return text_of(input.before);
        case b_column: return text_of(input.after);
        default: return {};
        }
    }
    const ComparedColumn& result = comparison_->columns[shown_columns_[static_cast<std::size_t>(row - inputRows())]];
    switch (column) {
    case name_column: return text_of(result.name);
    case a_column: return value_text(result.name, result.a);
    case b_column: return value_text(result.name, result.b);
    case difference_column: {
        const auto difference = result.difference();
        if (!difference || std::holds_alternative<std::string>(result.a)) return {};
        if (is_counted_run_column(result.name)) return QString::asprintf("%+lld", static_cast<long long>(*difference));
        return text_of(run_column_text(result.name, *difference, true));
    }
    case ratio_column: {
        const auto ratio = result.ratio();
        if (!ratio || std::holds_alternative<std::string>(result.a)) return {};
        return QString::number(*ratio, 'g', 4) + QStringLiteral("×");
    }
    default: return {};
    }
}

QVariant RunComparisonModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const bool input = index.row() < inputRows();
    switch (role) {
    case Qt::DisplayRole: return cellText(index.row(), index.column());
    case InputRole: return input;
    case Qt::FontRole:
        if (input) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::ToolTipRole:
        return input ? tr("An input that differs: the scenario field's value in A and in B")
                     : tr("A stored result: its value in A and in B, B − A and B / A");
    case Qt::TextAlignmentRole:
        return index.column() == name_column ? QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter)
                                             : QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    default: return {};
    }
}

QVariant RunComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case name_column: return tr("Input / result");
    case a_column: return comparison_ ? tr("A (run:%1)").arg(comparison_->a) : tr("A");
    case b_column: return comparison_ ? tr("B (run:%1)").arg(comparison_->b) : tr("B");
    case difference_column: return tr("B − A");
    case ratio_column: return tr("B / A");
    default: return {};
    }
}

}  // namespace parasight::gui
