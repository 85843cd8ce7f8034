#include "results/device_rows.h"

#include <QCoreApplication>

#include <cmath>
#include <map>

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
            rows.push_back(DeviceRow{label, {d}});
        }
        return rows;
    }
    std::map<int, std::vector<std::size_t>> by_stage;
    for (std::size_t d = 0; d < report.per_device.size(); ++d) by_stage[report.per_device[d].stage].push_back(d);
    rows.reserve(by_stage.size());
    for (auto& [stage, devices] : by_stage) {
        rows.push_back(DeviceRow{QCoreApplication::translate("DeviceRows", "Stage %1").arg(stage), std::move(devices)});
    }
    return rows;
}

}  // namespace parasight::gui
