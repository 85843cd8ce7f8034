#pragma once
// The time breakdown as a table: a row for the mean over all devices, then one per pipeline stage (the weighted
// mean of its devices) or per simulated device; a column per part — compute, exposed TP / CP / EP / PP / DP
// communication, exposed memory, bubble, idle — and the total, which is the iteration time on every row. Shown as
// times or as shares of the iteration. The breakdown chart draws the same rows.

#include "analysis/report.h"
#include "results/device_rows.h"
#include "style/breakdown_parts.h"

#include <QAbstractTableModel>
#include <QColor>

#include <array>
#include <optional>
#include <vector>

namespace parasight::gui {

class BreakdownTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    // compute, exposed tp, cp, ep, pp, dp, exposed memory, bubble, idle: the columns, then the total.
    static constexpr int part_count = breakdown_part_count;
    static constexpr int total_column = part_count;
    // The part's value, in seconds, for SecondsRole.
    static constexpr int SecondsRole = Qt::UserRole + 1;

    explicit BreakdownTableModel(QObject* parent = nullptr);

    void showReport(const Report& report, DeviceGrouping grouping);
    void clear();
    // Shares of the iteration (percent) instead of times.
    void setShowShares(bool shares);
    [[nodiscard]] bool showsShares() const noexcept { return shares_; }

    // Whether any row spends time on this part: empty parts are left out of the chart and hidden in the table.
    [[nodiscard]] bool partIsEmpty(int part) const;
    [[nodiscard]] double seconds(int row, int column) const;
    // The value as the chart draws it: seconds, or percent of the iteration.
    [[nodiscard]] double chartValue(int row, int column) const;
    [[nodiscard]] double iterationSeconds() const noexcept { return iteration_s_; }
    // The first simulated device (index into Report::per_device) of a stage or device row; none for the mean row.
    [[nodiscard]] std::optional<std::size_t> firstDevice(int row) const {
        return rows_.at(static_cast<std::size_t>(row)).first_device;
    }

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                      int role = Qt::DisplayRole) const override;

private:
    struct Row {
        QString label;
        std::array<double, part_count> seconds{};
        double total_s = 0.0;
        std::optional<std::size_t> first_device;  // the mean row has none
    };
    [[nodiscard]] QString valueText(double seconds) const;

    std::vector<Row> rows_;
    double iteration_s_ = 0.0;
    bool shares_ = false;
};

}  // namespace parasight::gui
