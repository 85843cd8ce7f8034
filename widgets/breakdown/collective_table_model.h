#pragma once
// The Breakdown tab's communication table (analysis/collective_table.h): a row per kind of call a device makes in the
// iteration — its group, operation and ranks, calls per device, bytes and time per call, and its algorithm and bus
// bandwidths as nccl-tests report them.

#include "analysis/collective_table.h"

#include <QAbstractTableModel>

#include <vector>

namespace parasight::gui {

class CollectiveTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { group_column, operation_column, ranks_column, calls_column, bytes_column, time_column,
                  algbw_column, busbw_column, method_column, column_count };
    // The value of a cell as a number (its column's unit: bytes, seconds, B/s), for sorting and tests.
    static constexpr int ValueRole = Qt::UserRole + 1;

    explicit CollectiveTableModel(QObject* parent = nullptr);

    void setRows(std::vector<CollectiveRow> rows);

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<CollectiveRow> rows_;
};

}  // namespace parasight::gui
