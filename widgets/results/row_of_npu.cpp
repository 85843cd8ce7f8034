#include "results/row_of_npu.h"

namespace parasight::gui {

std::optional<int> row_showing_npu(const Report& report, int rows,
                                   const std::function<std::optional<std::size_t>(int)>& first_device,
                                   std::int64_t npu) {
    std::optional<int> stage_device;
    for (std::size_t d = 0; d < report.per_device.size(); ++d) {
        if (report.per_device[d].npu == npu) stage_device = report.per_device[d].stage;
    }
    if (!stage_device) return std::nullopt;
    std::optional<int> stage_row;
    for (int row = 0; row < rows; ++row) {
        const std::optional<std::size_t> device = first_device(row);
        if (!device || *device >= report.per_device.size()) continue;
        const DeviceReport& shown = report.per_device[*device];
        if (shown.npu == npu) return row;
        if (!stage_row && shown.stage == *stage_device) stage_row = row;
    }
    return stage_row;
}

}  // namespace parasight::gui
