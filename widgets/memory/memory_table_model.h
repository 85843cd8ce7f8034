#pragma once
// Memory at the peak, as a table: a row per pipeline stage (its device with the highest peak) or per simulated
// device; a column per category — weights, gradients, optimizer state, activations, buffers — then the peak and
// its share of the device's capacity, marked when it is over. The memory chart draws the same rows.

#include "analysis/report.h"
#include "results/device_rows.h"

#include <QAbstractTableModel>
#include <QColor>

#include <array>
#include <vector>

namespace parasight::gui {

class MemoryTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    static constexpr int category_count = static_cast<int>(memory_category_count);
    static constexpr int peak_column = category_count;
    static constexpr int share_column = category_count + 1;
    // Bytes (the share column: percent of capacity), for BytesRole.
    static constexpr int BytesRole = Qt::UserRole + 1;

    explicit MemoryTableModel(QObject* parent = nullptr);

    void showReport(const Report& report, DeviceGrouping grouping);
    void clear();

    [[nodiscard]] static QString categoryName(int category);
    [[nodiscard]] static QColor categoryColor(int category);
    // Whether no row holds anything of this category: left out of the chart and hidden in the table.
    [[nodiscard]] bool categoryIsEmpty(int category) const;
    [[nodiscard]] double bytes(int row, int column) const;
    [[nodiscard]] double capacityBytes() const noexcept { return capacity_bytes_; }
    [[nodiscard]] bool overCapacity(int row) const;
    // The row's name in the chart ("Stage 3"); the table's header also names the device shown ("Stage 3 · NPU 24").
    [[nodiscard]] QString rowLabel(int row) const { return rows_.at(static_cast<std::size_t>(row)).label; }
    // Into Report::per_device: the device a row shows.
    [[nodiscard]] std::size_t device(int row) const { return rows_.at(static_cast<std::size_t>(row)).device; }

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                      int role = Qt::DisplayRole) const override;

private:
    struct Row {
        QString label;
        QString header;
        std::size_t device = 0;
        std::array<double, memory_category_count> bytes{};
        double peak_bytes = 0.0;
    };
    [[nodiscard]] double sharePercent(const Row& row) const;

    std::vector<Row> rows_;
    double capacity_bytes_ = 0.0;
};

}  // namespace parasight::gui
