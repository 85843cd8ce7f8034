#include "history/history_model.h"

#include "export/run_column_text.h"
#include "sweep/point_result.h"

#include <algorithm>

namespace parasight::gui {
namespace {

QString text_of(const std::string& text) { return QString::fromStdString(text); }

// "2026-11-26T14:03:07Z" → "2026-11-26 14:03 UTC".
QString date_text(const std::string& created_at) {
    QString date = text_of(created_at);
    if (date.size() >= 16 && date[10] == u'T') return date.left(10) + u' ' + date.mid(11, 5) + QStringLiteral(" UTC");
    return date;
}

// "32 of 32: 24 ok, 8 OOM (est.)".
QString stored_text(const SweepSummary& sweep) {
    QStringList parts;
    for (std::size_t s = 0; s < sweep.stored_by_status.size(); ++s) {
        if (sweep.stored_by_status[s] == 0) continue;
        const std::string_view status = name_of(static_cast<PointStatus>(s), point_status_names);
        parts << QStringLiteral("%1 %2").arg(sweep.stored_by_status[s]).arg(
                     QString::fromUtf8(status.data(), static_cast<qsizetype>(status.size())));
    }
    const QString counted = HistoryModel::tr("%1 of %2").arg(sweep.stored()).arg(sweep.point_count);
    return parts.isEmpty() ? counted : counted + QStringLiteral(": ") + parts.join(QStringLiteral(", "));
}

}  // namespace

HistoryModel::HistoryModel(QObject* parent) : QAbstractTableModel(parent) {}

void HistoryModel::setEntries(HistoryEntries entries) {
    beginResetModel();
    rows_.clear();
    for (const SweepSummary& sweep : entries.sweeps) {
        QStringList axes;
        for (std::size_t a = 0; a < sweep.axis_paths.size(); ++a) {
            const std::size_t values = a < sweep.axis_value_counts.size() ? sweep.axis_value_counts[a] : 0;
            axes << QStringLiteral("%1 (%2)").arg(text_of(sweep.axis_paths[a])).arg(values);
        }
        Row row{Kind::sweep, sweep.id, text_of(sweep.created_at), date_text(sweep.created_at), text_of(sweep.name),
                axes.join(QStringLiteral(" × ")), stored_text(sweep), {}, sweep.stored() < sweep.point_count};
        row.tooltip = tr("sweep:%1 by core %2; its axes with how many values each: %3")
                          .arg(sweep.id)
                          .arg(text_of(sweep.core_version), row.contents);
        rows_.push_back(std::move(row));
    }
    for (const RunSummary& run : entries.runs) {
        const QString time = run.iteration_time_s
                                 ? tr("iteration %1").arg(text_of(run_column_text("iteration_time_s", *run.iteration_time_s)))
                                 : QString();
        rows_.push_back(Row{Kind::run, run.id, text_of(run.created_at), date_text(run.created_at),
                            text_of(run.scenario_name), time,
                            text_of(run.status), tr("run:%1, a single run").arg(run.id), false});
    }
    // Newest first; of those stored in the same second, the later id first.
    std::stable_sort(rows_.begin(), rows_.end(), [](const Row& a, const Row& b) {
        return a.stored_at != b.stored_at ? a.stored_at > b.stored_at : a.id > b.id;
    });
    endResetModel();
}

bool HistoryModel::isIncomplete(int row) const { return rows_.at(static_cast<std::size_t>(row)).incomplete; }

HistoryModel::Kind HistoryModel::kindOf(int row) const { return rows_.at(static_cast<std::size_t>(row)).kind; }

std::int64_t HistoryModel::idOf(int row) const { return rows_.at(static_cast<std::size_t>(row)).id; }

QString HistoryModel::nameOf(int row) const {
    const Row& r = rows_.at(static_cast<std::size_t>(row));
    return (r.kind == Kind::sweep ? QStringLiteral("sweep:%1") : QStringLiteral("run:%1")).arg(r.id);
}

int HistoryModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int HistoryModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : column_count; }

QVariant HistoryModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const Row& row = rows_[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case what_column: return nameOf(index.row());
        case date_column: return row.date;
        case name_column: return row.name;
        case contents_column: return row.contents;
        case stored_column: return row.stored;
        default: return {};
        }
    case Qt::ToolTipRole:
        // What an elided cell holds, then what the row is.
        return data(index, Qt::DisplayRole).toString() + QStringLiteral("\n") + row.tooltip;
    case KindRole: return static_cast<int>(row.kind);
    case IdRole: return QVariant::fromValue(static_cast<qlonglong>(row.id));
    case SortRole:
        // The date to the second, then the id: the newest first when sorted descending.
        if (index.column() == date_column) return row.stored_at + QStringLiteral("#%1").arg(row.id, 12, 10, QLatin1Char('0'));
        if (index.column() == what_column) return static_cast<qlonglong>(row.id);
        return data(index, Qt::DisplayRole);
    default: return {};
    }
}

QVariant HistoryModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case what_column: return tr("What");
    case date_column: return tr("Stored");
    case name_column: return tr("Name");
    case contents_column: return tr("Axes / result");
    case stored_column: return tr("Points / status");
    default: return {};
    }
}

}  // namespace parasight::gui
