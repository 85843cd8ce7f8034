#pragma once
// How full each memory tier is: the fullest device's own memory at its peak, then every tier that keeps offloaded model
// states — host memory and NVMe on the node that keeps the most, the memory pool with every device's — as a bar each,
// the share of the tier's capacity it takes, with the bytes and what the tier keeps beside it (docs/model.md §7).
// Tiers of a thousand times the device's capacity read on one scale this way.

#include "analysis/report.h"

#include <QColor>
#include <QString>
#include <QWidget>

#include <vector>

namespace parasight::gui {

struct TierCapacityRow {
    QString tier;   // "Device memory (NPU 3)", "Host memory (node of NPU 0)", "NVMe (node of NPU 0)", "Memory pool"
    QString keeps;  // "its peak", "optimizer states", …
    double used_bytes = 0.0;
    double capacity_bytes = 0.0;
    QColor color;

    [[nodiscard]] bool over() const noexcept { return used_bytes > capacity_bytes; }
    [[nodiscard]] double share() const noexcept { return capacity_bytes > 0.0 ? used_bytes / capacity_bytes : 0.0; }
    // "13.16 TiB of 59.6 TiB (22.1%)".
    [[nodiscard]] QString usage_text() const;
};

// The device row, then a row a tier in the report's order (host, NVMe, pool); none without offloading.
[[nodiscard]] std::vector<TierCapacityRow> tier_capacity_rows(const Report& report);

class TierCapacityBars : public QWidget {
    Q_OBJECT
public:
    explicit TierCapacityBars(QWidget* parent = nullptr);

    // Shown while the report offloads model states, hidden otherwise.
    void showReport(const Report& report);
    void clear();
    [[nodiscard]] const std::vector<TierCapacityRow>& rows() const noexcept { return rows_; }
    // Where row `row`'s bar is drawn (its track, the capacity), in widget coordinates.
    [[nodiscard]] QRect trackRect(int row) const;

    [[nodiscard]] QSize sizeHint() const override;
    [[nodiscard]] QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    [[nodiscard]] int rowHeight() const;
    [[nodiscard]] int nameWidth() const;
    [[nodiscard]] int textWidth() const;
    [[nodiscard]] int rowAt(int y) const;
    [[nodiscard]] QString rowText(const TierCapacityRow& row) const;

    std::vector<TierCapacityRow> rows_;
};

}  // namespace parasight::gui
