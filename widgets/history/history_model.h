#pragma once
// The results database's history as a table, newest first: each sweep (its name, axes and points stored by status)
// and each single run (its scenario's name, status and iteration time), with the date it was stored. A row's kind
// and id are its KindRole and IdRole, for the page's actions.

#include "store/result_store.h"

#include <QAbstractTableModel>

#include <vector>

namespace parasight::gui {

struct HistoryEntries {
    std::vector<SweepSummary> sweeps;
    std::vector<RunSummary> runs;
};

class HistoryModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { what_column, date_column, name_column, stored_column, contents_column, column_count };
    enum class Kind : std::uint8_t { sweep, run };
    static constexpr int KindRole = Qt::UserRole + 1;  // int(Kind)
    static constexpr int IdRole = Qt::UserRole + 2;    // the sweep's or run's id
    // The created_at text, for sorting by date.
    static constexpr int SortRole = Qt::UserRole + 3;

    explicit HistoryModel(QObject* parent = nullptr);

    void setEntries(HistoryEntries entries);
    [[nodiscard]] Kind kindOf(int row) const;
    [[nodiscard]] std::int64_t idOf(int row) const;
    // A sweep with points not stored yet (stopped, cancelled, or run on shards not merged): Resume runs them.
    [[nodiscard]] bool isIncomplete(int row) const;
    // "sweep:3", "run:12": as the command line names them.
    [[nodiscard]] QString nameOf(int row) const;

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    struct Row {
        Kind kind = Kind::run;
        std::int64_t id = 0;
        QString stored_at;  // as stored: UTC, ISO 8601 to the second (what sorts)
        QString date;       // as shown: to the minute
        QString name;
        QString contents;  // a sweep's axes; a run's iteration time
        QString stored;    // a sweep's points by status; a run's status
        QString tooltip;
        bool incomplete = false;
    };
    std::vector<Row> rows_;
};

}  // namespace parasight::gui
