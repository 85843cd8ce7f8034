#pragma once
// The oracle at one PE count, as a table: a row per strategy (docs/oracle.md) with its computation and communication
// time, their sum, its memory per PE, the arrangement of the PEs and, when a limit rules it out, the limit. Times are
// per epoch or per iteration. The Oracle tab's bar charts draw the same rows.

#include "oracle/strong_scaling.h"

#include <QAbstractTableModel>
#include <QColor>

#include <vector>

namespace parasight::gui {

class OracleTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column : int { compute_column, communication_column, time_column, memory_column, pes_column, limit_column,
                        column_count };

    explicit OracleTableModel(QObject* parent = nullptr);

    // The choices at one p; times divided by `iterations` when `per_iteration`; memory against `capacity_bytes`.
    void show(std::vector<OracleChoice> choices, double iterations, bool per_iteration, double capacity_bytes);
    void clear();

    [[nodiscard]] OracleStrategy strategy(int row) const { return rows_.at(static_cast<std::size_t>(row)).strategy; }
    // Seconds in the compute, communication and time columns (per epoch or per iteration), bytes in the memory one.
    [[nodiscard]] double value(int row, int column) const;
    [[nodiscard]] bool ruledOut(int row) const;
    [[nodiscard]] bool fits(int row) const;
    [[nodiscard]] double capacityBytes() const noexcept { return capacity_bytes_; }
    [[nodiscard]] bool perIteration() const noexcept { return per_iteration_; }
    // The row's name in the charts: the strategy, and "ruled out" when it is.
    [[nodiscard]] QString rowLabel(int row) const;

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                      int role = Qt::DisplayRole) const override;

private:
    [[nodiscard]] QString arrangement(const OracleChoice& choice) const;

    std::vector<OracleChoice> rows_;
    double iterations_ = 1.0;
    bool per_iteration_ = false;
    double capacity_bytes_ = 0.0;
};

}  // namespace parasight::gui
