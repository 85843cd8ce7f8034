#include "breakdown/collective_table_model.h"

#include "style/activity_colors.h"
#include "style/quantity_text.h"

#include <cmath>

namespace parasight::gui {

CollectiveTableModel::CollectiveTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void CollectiveTableModel::setRows(std::vector<CollectiveRow> rows) {
    beginResetModel();
    rows_ = std::move(rows);
    endResetModel();
}

int CollectiveTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int CollectiveTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : column_count; }

QVariant CollectiveTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const CollectiveRow& row = rows_[static_cast<std::size_t>(index.row())];
    const std::string_view group = name_of(row.group, comm_group_names);
    if (role == Qt::DecorationRole && index.column() == group_column) return exposed_comm_color(row.group);
    if (role == Qt::TextAlignmentRole && index.column() >= ranks_column && index.column() <= busbw_column) {
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role == ValueRole) {
        switch (index.column()) {
        case ranks_column: return static_cast<qlonglong>(row.ranks);
        case calls_column: return row.calls_per_device;
        case bytes_column: return row.bytes_per_call;
        case time_column: return row.time_per_call_s;
        case algbw_column: return row.algbw_Bps;
        case busbw_column: return row.busbw_Bps;
        case method_column: return QString::fromStdString(row.method);
        default: return {};
        }
    }
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
    case group_column: return QString::fromLatin1(group.data(), static_cast<qsizetype>(group.size())).toUpper();
    case operation_column: return QString::fromStdString(row.operation);
    case ranks_column: return QString::number(row.ranks);
    case calls_column: return fixed_text(row.calls_per_device, row.calls_per_device == std::floor(row.calls_per_device) ? 0 : 1);
    case bytes_column: return bytes_text(row.bytes_per_call);
    case time_column: return time_text(row.time_per_call_s);
    case algbw_column: return quantity_text(row.algbw_Bps, units::Dimension::bandwidth);
    case busbw_column: return quantity_text(row.busbw_Bps, units::Dimension::bandwidth);
    case method_column: return QString::fromStdString(row.method);
    default: return {};
    }
}

QVariant CollectiveTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= column_count) return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case group_column: return tr("Group");
        case operation_column: return tr("Operation");
        case ranks_column: return tr("Ranks");
        case calls_column: return tr("Calls per device");
        case bytes_column: return tr("Bytes per call");
        case time_column: return tr("Time per call");
        case algbw_column: return tr("algbw");
        case busbw_column: return tr("busbw");
        case method_column: return tr("Algorithm · protocol");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case group_column: return tr("The parallel group the call runs in");
        case operation_column: return tr("The communication, as the timeline names it");
        case ranks_column: return tr("Devices taking part in one call (2 for a pipeline send)");
        case calls_column: return tr("Calls a device makes in the iteration (the mean over the devices)");
        case bytes_column: return tr("The buffer of one call");
        case time_column: return tr("The time one call took as it ran, sharing links with the others (the mean)");
        case algbw_column: return tr("Algorithm bandwidth: bytes per call / time per call");
        case busbw_column:
            return tr("Bus bandwidth, as nccl-tests report it: algbw × 2(n − 1)/n for an all-reduce of n ranks, "
                      "× (n − 1)/n for a reduce-scatter, all-gather or all-to-all, × 1 for a send; it compares with "
                      "a link's bandwidth whatever n is");
        case method_column:
            return tr("How the call ran on each topology dimension it used: its algorithm (ring, tree, in-switch "
                      "reduction, …) and NCCL protocol (Simple, LL128, LL) — NCCL's choice for the call's size and "
                      "ranks where the dimension leaves it to NCCL");
        default: return {};
        }
    }
    return {};
}

}  // namespace parasight::gui
