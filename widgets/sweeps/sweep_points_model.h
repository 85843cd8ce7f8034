#pragma once
// A page of a stored sweep's points as a table — its number, each axis's value, its status and the results people
// rank by (iteration time, samples/s, tokens/s, MFU, peak memory) in their units — read from the database a page at
// a time (store/result_store.h read_sweep), in the order the database sorted them: sorting asks the page for
// another order (sortRequested) instead of sorting what is loaded, so that the top of 10^5 points is the real top.

#include "store/stored_table.h"

#include <QAbstractTableModel>

#include <optional>
#include <string>
#include <vector>

namespace parasight::gui {

class SweepPointsModel : public QAbstractTableModel {
    Q_OBJECT

public:
    static constexpr int PointRole = Qt::UserRole + 1;  // the row's point number

    explicit SweepPointsModel(QObject* parent = nullptr);

    // A new sweep's first page (`axes` its axis paths), or the next page of the same one (append).
    void setPage(const std::vector<std::string>& axes, StoredTable page, bool append);
    void clear();
    // The column a header sorts by (a column of the sweep's view).
    [[nodiscard]] std::string orderColumn(int column) const;
    // The row's value of an axis (for the heatmap's cell of the row).
    [[nodiscard]] const StoredValue& axisValue(int row, const std::string& axis) const;
    [[nodiscard]] std::int64_t pointOf(int row) const;

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    // Asks for the points in this order from the database.
    void sort(int column, Qt::SortOrder order) override;

Q_SIGNALS:
    void sortRequested(const QString& column, Qt::SortOrder order);

private:
    std::vector<std::string> axes_;
    std::vector<std::string> shown_;  // the view's columns shown, in order
    std::vector<int> source_;         // each shown column's index in the page (-1 when the page lacks it)
    StoredTable rows_;
};

}  // namespace parasight::gui
