#include "breakdown/breakdown_table_model.h"

#include "style/activity_colors.h"
#include "style/quantity_text.h"

#include <QCoreApplication>

namespace parasight::gui {

namespace {

constexpr int first_comm_part = 1;
constexpr int memory_part = first_comm_part + static_cast<int>(comm_group_count);
constexpr int bubble_part = memory_part + 1;
constexpr int idle_part = bubble_part + 1;
static_assert(idle_part + 1 == BreakdownTableModel::part_count);

std::array<double, BreakdownTableModel::part_count> parts_of(const TimeBreakdown& breakdown) {
    std::array<double, BreakdownTableModel::part_count> parts{};
    parts[0] = breakdown.compute_s;
    for (std::size_t g = 0; g < comm_group_count; ++g) parts[first_comm_part + g] = breakdown.exposed_comm_s[g];
    parts[memory_part] = breakdown.exposed_memory_s;
    parts[bubble_part] = breakdown.bubble_s;
    parts[idle_part] = breakdown.idle_s;
    return parts;
}

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
    add(tr("Mean of all devices"), parts_of(report.breakdown), std::nullopt);
    for (const DeviceRow& device_row : device_rows(report, grouping)) {
        add(device_row.label, parts_of(device_row.breakdown), device_row.devices.front());
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

QString BreakdownTableModel::partName(int part) {
    if (part == 0) return tr("Compute");
    if (part >= first_comm_part && part < memory_part) {
        const std::string_view group = name_of(static_cast<CommGroup>(part - first_comm_part), comm_group_names);
        return tr("%1 exposed").arg(QString::fromLatin1(group.data(), static_cast<qsizetype>(group.size())).toUpper());
    }
    if (part == memory_part) return tr("Memory exposed");
    if (part == bubble_part) return tr("Bubble");
    if (part == idle_part) return tr("Idle");
    return tr("Total");
}

QString BreakdownTableModel::partMeaning(int part) {
    if (part == 0) return tr("Time the device computes (forward, backward, recompute, optimizer)");
    if (part >= first_comm_part && part < memory_part) {
        return tr("Exposed communication: time the device waits on this group's transfers with nothing to compute "
                  "(communication that runs beside computation is hidden and not counted)");
    }
    if (part == memory_part) return tr("Time the device waits on memory transfers with nothing to compute");
    if (part == bubble_part) {
        return tr("Pipeline bubble: idle time waiting for the pipeline to fill (before a stage's first micro-batch "
                  "arrives) or drain (after its last leaves)");
    }
    if (part == idle_part) return tr("Any other time the device waits (for another device, in the middle of the run)");
    return tr("The iteration: every part of the row adds up to it");
}

QColor BreakdownTableModel::partColor(int part) {
    if (part == 0) return compute_color();
    if (part >= first_comm_part && part < memory_part) return exposed_comm_color(static_cast<CommGroup>(part - first_comm_part));
    if (part == memory_part) return exposed_memory_color();
    if (part == bubble_part) return bubble_color();
    return idle_color();
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
            .arg(rows_[static_cast<std::size_t>(index.row())].label, partName(index.column()), time_text(value_s),
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
    if (role == Qt::DisplayRole) return partName(section);
    if (role == Qt::ToolTipRole) return partMeaning(section);
    if (role == Qt::DecorationRole && section < part_count) return partColor(section);
    return {};
}

}  // namespace parasight::gui
