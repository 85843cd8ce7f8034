#include "results/device_rows.h"

#include "analysis/stage_figures.h"

#include <QCoreApplication>

#include <cmath>

namespace parasight::gui {

std::vector<DeviceRow> device_rows(const Report& report, DeviceGrouping grouping) {
    std::vector<DeviceRow> rows;
    if (grouping == DeviceGrouping::device) {
        rows.reserve(report.per_device.size());
        for (std::size_t d = 0; d < report.per_device.size(); ++d) {
            const DeviceReport& device = report.per_device[d];
            QString label = QCoreApplication::translate("DeviceRows", "NPU %1 · stage %2").arg(device.npu).arg(device.stage);
            // A representative device stands for its whole symmetry class.
            if (device.weight > 1.0) label += QStringLiteral(" ×%1").arg(std::llround(device.weight));
            rows.push_back(DeviceRow{label, {d}, device.breakdown, d});
        }
        return rows;
    }
    for (StageFigures& stage : stage_figures(report)) {
        rows.push_back(DeviceRow{QCoreApplication::translate("DeviceRows", "Stage %1").arg(stage.stage),
                                 std::move(stage.devices), stage.mean_breakdown, stage.fullest_device});
    }
    return rows;
}

}  // namespace parasight::gui
