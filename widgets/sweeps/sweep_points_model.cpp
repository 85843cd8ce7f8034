#include "sweeps/sweep_points_model.h"

#include "export/run_column_text.h"

namespace parasight::gui {
namespace {

constexpr std::array<std::string_view, 6> result_columns{"status",         "iteration_time_s", "samples_per_s",
                                                         "tokens_per_s",   "mfu",              "peak_memory_bytes"};

const StoredValue no_value{};

}  // namespace

SweepPointsModel::SweepPointsModel(QObject* parent) : QAbstractTableModel(parent) {}

void SweepPointsModel::setPage(const std::vector<std::string>& axes, StoredTable page, bool append) {
    if (append && !rows_.rows.empty() && page.names == rows_.names) {
        if (page.rows.empty()) return;
        const int first = rowCount();
        beginInsertRows({}, first, first + static_cast<int>(page.rows.size()) - 1);
        for (auto& row : page.rows) rows_.rows.push_back(std::move(row));
        endInsertRows();
        return;
    }
    beginResetModel();
    axes_ = axes;
    shown_ = {"point"};
    shown_.insert(shown_.end(), axes.begin(), axes.end());
    shown_.insert(shown_.end(), result_columns.begin(), result_columns.end());
    rows_ = std::move(page);
    source_.clear();
    for (const std::string& name : shown_) source_.push_back(rows_.column(name));
    endResetModel();
}

void SweepPointsModel::clear() {
    beginResetModel();
    rows_ = {};
    shown_.clear();
    source_.clear();
    endResetModel();
}

std::string SweepPointsModel::orderColumn(int column) const {
    return column >= 0 && static_cast<std::size_t>(column) < shown_.size() ? shown_[static_cast<std::size_t>(column)]
                                                                           : std::string();
}

const StoredValue& SweepPointsModel::axisValue(int row, const std::string& axis) const {
    const int column = rows_.column(axis);
    if (column < 0 || row < 0 || row >= rowCount()) return no_value;
    return rows_.rows[static_cast<std::size_t>(row)][static_cast<std::size_t>(column)];
}

std::int64_t SweepPointsModel::pointOf(int row) const {
    const StoredValue& value = row >= 0 && row < rowCount() ? rows_.at(static_cast<std::size_t>(row), "point") : no_value;
    const auto* point = std::get_if<std::int64_t>(&value);
    return point != nullptr ? *point : -1;
}

int SweepPointsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.rows.size());
}

int SweepPointsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(shown_.size());
}

QVariant SweepPointsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const int source = source_[static_cast<std::size_t>(index.column())];
    const StoredValue& value =
        source >= 0 ? rows_.rows[static_cast<std::size_t>(index.row())][static_cast<std::size_t>(source)] : no_value;
    const std::string& name = shown_[static_cast<std::size_t>(index.column())];
    const bool is_axis = index.column() > 0 && static_cast<std::size_t>(index.column()) <= axes_.size();
    switch (role) {
    case Qt::DisplayRole: {
        const std::optional<double> number = stored_number(value);
        if (!number || is_axis || name == "point") return QString::fromStdString(stored_text(value));
        return QString::fromStdString(run_column_text(name, *number));
    }
    case PointRole: return QVariant::fromValue(static_cast<qlonglong>(pointOf(index.row())));
    case Qt::TextAlignmentRole:
        return name == "status" ? QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter)
                                : QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    default: return {};
    }
}

QVariant SweepPointsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || static_cast<std::size_t>(section) >= shown_.size()) return {};
    if (role == Qt::DisplayRole) return QString::fromStdString(shown_[static_cast<std::size_t>(section)]);
    if (role == Qt::ToolTipRole) return tr("Click to sort every point of the sweep by this column");
    return {};
}

void SweepPointsModel::sort(int column, Qt::SortOrder order) {
    const std::string name = orderColumn(column);
    if (!name.empty()) Q_EMIT sortRequested(QString::fromStdString(name), order);
}

}  // namespace parasight::gui
