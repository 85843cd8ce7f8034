#pragma once
// Two stored runs side by side (store/run_comparison.h) as one table: first the inputs that differ — each scenario
// field path with its value in A and in B — then every stored result with its value in A and B, B − A and B / A in
// the result's units — leaving out what says nothing here: the scenario's hash (the inputs say how they differ), the
// dates, and columns empty in both. Input rows are InputRole true, to set them apart.

#include "store/run_comparison.h"

#include <QAbstractTableModel>

#include <optional>
#include <vector>

namespace parasight::gui {

class RunComparisonModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { name_column, a_column, b_column, difference_column, ratio_column, column_count };
    static constexpr int InputRole = Qt::UserRole + 1;

    explicit RunComparisonModel(QObject* parent = nullptr);

    void setComparison(RunComparison comparison);
    void clear();
    [[nodiscard]] const std::optional<RunComparison>& comparison() const noexcept { return comparison_; }
    // How many rows are inputs that differ (they come first).
    [[nodiscard]] int inputRows() const noexcept;

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    [[nodiscard]] QString cellText(int row, int column) const;

    std::optional<RunComparison> comparison_;
    std::vector<std::size_t> shown_columns_;  // of comparison_->columns, in order
};

}  // namespace parasight::gui
