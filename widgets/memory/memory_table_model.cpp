#include "memory/memory_table_model.h"

#include "style/activity_colors.h"
#include "style/memory_category_text.h"
#include "style/quantity_text.h"

namespace parasight::gui {

MemoryTableModel::MemoryTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void MemoryTableModel::showReport(const Report& report, DeviceGrouping grouping) {
    beginResetModel();
    rows_.clear();
    capacity_bytes_ = report.memory_capacity_bytes;
    for (const DeviceRow& device_row : device_rows(report, grouping)) {
        // A stage is as full as its fullest device.
        const std::size_t fullest = device_row.fullest_device;
        const DeviceReport& device = report.per_device[fullest];
        QString header = device_row.label;
        if (grouping == DeviceGrouping::stage) header += tr(" · NPU %1").arg(device.npu);
        rows_.push_back(Row{device_row.label, header, fullest, device.memory_at_peak_bytes, device.peak_memory_bytes});
    }
    endResetModel();
}

void MemoryTableModel::clear() {
    beginResetModel();
    rows_.clear();
    capacity_bytes_ = 0.0;
    endResetModel();
}

QString MemoryTableModel::categoryName(int category) {
    return memory_category_text(static_cast<MemoryCategory>(category));
}

QColor MemoryTableModel::categoryColor(int category) {
    return memory_category_color(static_cast<MemoryCategory>(category));
}

double MemoryTableModel::sharePercent(const Row& row) const {
    return capacity_bytes_ > 0.0 ? 100.0 * row.peak_bytes / capacity_bytes_ : 0.0;
}

bool MemoryTableModel::categoryIsEmpty(int category) const {
    for (const Row& row : rows_) {
        if (row.bytes.at(static_cast<std::size_t>(category)) > 0.0) return false;
    }
    return true;
}

double MemoryTableModel::bytes(int row, int column) const {
    const Row& r = rows_.at(static_cast<std::size_t>(row));
    if (column == peak_column) return r.peak_bytes;
    if (column == share_column) return sharePercent(r);
    return r.bytes.at(static_cast<std::size_t>(column));
}

bool MemoryTableModel::overCapacity(int row) const {
    return capacity_bytes_ > 0.0 && rows_.at(static_cast<std::size_t>(row)).peak_bytes > capacity_bytes_;
}

int MemoryTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int MemoryTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : share_column + 1; }

QVariant MemoryTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const Row& row = rows_[static_cast<std::size_t>(index.row())];
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return column == share_column ? percent_text(sharePercent(row)) : bytes_text(bytes(index.row(), column));
    case BytesRole: return bytes(index.row(), column);
    case Qt::TextAlignmentRole: return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (column >= peak_column && overCapacity(index.row())) return over_capacity_color();
        return {};
    case Qt::ToolTipRole:
        if (column >= peak_column) {
            return tr("%1: peak %2 of %3 (%4)")
                .arg(row.header, bytes_text(row.peak_bytes), bytes_text(capacity_bytes_), percent_text(sharePercent(row)));
        }
        return tr("%1, %2: %3 of the %4 peak")
            .arg(row.header, categoryName(column), bytes_text(bytes(index.row(), column)), bytes_text(row.peak_bytes));
    default: return {};
    }
}

QVariant MemoryTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Vertical) {
        if (section < 0 || section >= rowCount()) return {};
        if (role == Qt::DisplayRole) return rows_[static_cast<std::size_t>(section)].header;
        return {};
    }
    if (section < 0 || section > share_column) return {};
    if (role == Qt::DisplayRole) {
        if (section == peak_column) return tr("Peak");
        if (section == share_column) return tr("Of capacity");
        return categoryName(section);
    }
    if (role == Qt::ToolTipRole) {
        if (section == peak_column) return tr("The device's highest allocation in the iteration, every category at that moment");
        if (section == share_column) return tr("The peak as a share of the device's memory capacity");
        switch (static_cast<MemoryCategory>(section)) {
        case MemoryCategory::weights: return tr("The parameters the device holds (its share under ZeRO-3)");
        case MemoryCategory::gradients: return tr("The parameters' gradients (its share under ZeRO-2 and 3)");
        case MemoryCategory::optimizer:
            return tr("Optimizer state: Adam's fp32 master copy and two moments (its share under ZeRO-1 to 3)");
        case MemoryCategory::activations:
            return tr("Activations kept from each forward for its backward: they grow with the micro-batches in flight");
        case MemoryCategory::buffers:
            return tr("Communication buffers and the parameters ZeRO-3 gathers for a layer");
        case MemoryCategory::runtime:
            return tr("What the runtime holds before the model allocates anything: the CUDA context and its kernels");
        }
    }
    if (role == Qt::DecorationRole && section < category_count) return categoryColor(section);
    return {};
}

}  // namespace parasight::gui
