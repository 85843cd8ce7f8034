#include "breakdown/breakdown_table_model.h"

#include "style/breakdown_parts.h"
#include "style/quantity_text.h"

#include <QCoreApplication>

namespace parasight::gui {

namespace {

double percent_of(double part, double whole) { return whole > 0.0 ? 100.0 * part / whole : 0.0; }

}  // namespace

BreakdownTableModel::BreakdownTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void BreakdownTableModel::showReport(const Report& report, DeviceGrouping grouping) {
    beginResetModel();
    rows_.clear();
    iteration_s_ = report.iteration_time_s;
    const auto add = [this](QString label, const std::array<double, part_count>& parts,
                            std::optional<std::size_t> first_device) {
        Row row{std::move(label), parts, 0.0, first_device};
        for (const double part : parts) row.total_s += part;
        rows_.push_back(std::move(row));
    };
    add(tr("Mean of all devices"), breakdown_parts_s(report.breakdown), std::nullopt);
    for (const DeviceRow& device_row : device_rows(report, grouping)) {
        add(device_row.label, breakdown_parts_s(device_row.breakdown), device_row.devices.front());
    }
    endResetModel();
}

void BreakdownTableModel::clear() {
    beginResetModel();
    rows_.clear();
    iteration_s_ = 0.0;
    endResetModel();
}

void BreakdownTableModel::setShowShares(bool shares) {
    if (shares == shares_) return;
    shares_ = shares;
    if (!rows_.empty()) Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

bool BreakdownTableModel::partIsEmpty(int part) const {
    for (const Row& row : rows_) {
        if (row.seconds[static_cast<std::size_t>(part)] > 0.0) return false;
    }
    return true;
}

double BreakdownTableModel::seconds(int row, int column) const {
    const Row& r = rows_.at(static_cast<std::size_t>(row));
    return column == total_column ? r.total_s : r.seconds.at(static_cast<std::size_t>(column));
}

double BreakdownTableModel::chartValue(int row, int column) const {
    const double value = seconds(row, column);
    return shares_ ? percent_of(value, iteration_s_) : value;
}

int BreakdownTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int BreakdownTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : part_count + 1; }

QString BreakdownTableModel::valueText(double value_s) const {
    if (shares_) return percent_text(percent_of(value_s, iteration_s_));
    // Nothing is nothing in any unit: "0", not "0 ns".
    if (value_s == 0.0) return QStringLiteral("0");
    return time_text(value_s);
}

QVariant BreakdownTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const double value_s = seconds(index.row(), index.column());
    switch (role) {
    case Qt::DisplayRole: return valueText(value_s);
    case SecondsRole: return value_s;
    case Qt::TextAlignmentRole: return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        return tr("%1, %2: %3 (%4 of the iteration)")
            .arg(rows_[static_cast<std::size_t>(index.row())].label, breakdown_part_name(index.column()), time_text(value_s),
                 percent_text(percent_of(value_s, iteration_s_)));
    default: return {};
    }
}

QVariant BreakdownTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Vertical) {
        if (section < 0 || section >= rowCount()) return {};
        if (role == Qt::DisplayRole) return rows_[static_cast<std::size_t>(section)].label;
        return {};
    }
    if (section < 0 || section > total_column) return {};
    if (section == total_column) {
        if (role == Qt::DisplayRole) return tr("Total");
        if (role == Qt::ToolTipRole) return tr("The iteration: every part of the row adds up to it");
        return {};
    }
    if (role == Qt::DisplayRole) return breakdown_part_name(section);
    if (role == Qt::ToolTipRole) return breakdown_part_meaning(section);
    if (role == Qt::DecorationRole) return breakdown_part_color(section);
    return {};
}

}  // namespace parasight::gui
