#include "oracle/oracle_table_model.h"

#include "style/activity_colors.h"
#include "style/quantity_text.h"

namespace parasight::gui {

OracleTableModel::OracleTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void OracleTableModel::show(std::vector<OracleChoice> choices, double iterations, bool per_iteration,
                            double capacity_bytes) {
    beginResetModel();
    rows_ = std::move(choices);
    iterations_ = iterations > 0.0 ? iterations : 1.0;
    per_iteration_ = per_iteration;
    capacity_bytes_ = capacity_bytes;
    endResetModel();
}

void OracleTableModel::clear() {
    beginResetModel();
    rows_.clear();
    endResetModel();
}

double OracleTableModel::value(int row, int column) const {
    const OracleEstimate& estimate = rows_.at(static_cast<std::size_t>(row)).estimate;
    const double per = per_iteration_ ? iterations_ : 1.0;
    switch (column) {
    case compute_column: return estimate.compute_s / per;
    case communication_column: return estimate.communication_s / per;
    case time_column: return estimate.epoch_s() / per;
    case memory_column: return estimate.memory_bytes;
    default: return 0.0;
    }
}

bool OracleTableModel::ruledOut(int row) const {
    return rows_.at(static_cast<std::size_t>(row)).estimate.ruled_out.has_value();
}

bool OracleTableModel::fits(int row) const {
    return capacity_bytes_ <= 0.0 || rows_.at(static_cast<std::size_t>(row)).estimate.memory_bytes <= capacity_bytes_;
}

QString OracleTableModel::rowLabel(int row) const {
    const QString name = QString::fromUtf8(name_of(strategy(row), oracle_strategy_names).data());
    return ruledOut(row) ? tr("%1 (ruled out)").arg(name) : name;
}

QString OracleTableModel::arrangement(const OracleChoice& choice) const {
    return QString::fromStdString(oracle_arrangement_text(choice));
}

int OracleTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int OracleTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : column_count; }

QVariant OracleTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= column_count) return {};
    const OracleChoice& choice = rows_[static_cast<std::size_t>(index.row())];
    const bool ruled_out = choice.estimate.ruled_out.has_value();
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        if (column == limit_column) {
            return ruled_out ? QString::fromStdString(choice.estimate.ruled_out->bound) : QString();
        }
        if (column == pes_column) return arrangement(choice);
        if (column == memory_column) return bytes_text(value(index.row(), column));
        return time_text(value(index.row(), column));
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(column == limit_column ? Qt::AlignLeft | Qt::AlignVCenter
                                                          : Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (column == memory_column && !fits(index.row())) return over_capacity_color();
        if (ruled_out && column != limit_column) return QColor(Qt::gray);  // numbers for PEs it cannot use
        return {};
    case Qt::ToolTipRole: {
        // The bar charts show a cell's tooltip when hovered: say what it is, and why a strategy cannot run.
        QString text = rowLabel(index.row()) + QStringLiteral(" · ") + arrangement(choice) + QStringLiteral(": ") +
                       headerData(column, Qt::Horizontal).toString() + QStringLiteral(" ") +
                       data(index, Qt::DisplayRole).toString();
        if (ruled_out) text += QStringLiteral("\n") + QString::fromStdString(choice.estimate.ruled_out->reason);
        if (!fits(index.row())) {
            text += QStringLiteral("\n") + tr("does not fit in the device's %1").arg(bytes_text(capacity_bytes_));
        }
        return text;
    }
    default: return {};
    }
}

QVariant OracleTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Vertical) {
        if (role == Qt::DisplayRole && section >= 0 && section < rowCount()) {
            return QString::fromUtf8(name_of(strategy(section), oracle_strategy_names).data());
        }
        if (role == Qt::DecorationRole && section >= 0 && section < rowCount()) {
            return oracle_strategy_color(strategy(section));
        }
        return {};
    }
    if (role == Qt::DecorationRole) {
        if (section == compute_column) return compute_color();
        if (section == communication_column) return exposed_comm_color(CommGroup::tp);
        if (section == memory_column) return memory_category_color(MemoryCategory::activations);
        return {};
    }
    if (role != Qt::DisplayRole) return {};
    const QString per = per_iteration_ ? tr("iteration") : tr("epoch");
    switch (section) {
    case compute_column: return tr("Computation");
    case communication_column: return tr("Communication");
    case time_column: return tr("Time per %1").arg(per);
    case memory_column: return tr("Memory per PE");
    case pes_column: return tr("PEs");
    case limit_column: return tr("Ruled out by");
    default: return {};
    }
}

}  // namespace parasight::gui
