#pragma once
// How the result views list devices: one row per pipeline stage, or one per simulated device when there are few
// enough to read. A row names the simulated devices (indices into Report::per_device) it stands for, with the
// figures the views show of them, computed by the core (analysis/stage_figures.h).

#include "analysis/report.h"

#include <QString>

#include <cstddef>
#include <vector>

namespace parasight::gui {

enum class DeviceGrouping { stage, device };

// Past this many simulated devices the views offer stages only: more bars than this cannot be told apart.
inline constexpr std::size_t max_listed_devices = 64;

struct DeviceRow {
    QString label;                     // "Stage 3", "NPU 24 · stage 3 ×8"
    std::vector<std::size_t> devices;  // into Report::per_device
    TimeBreakdown breakdown;           // a device's own; a stage's mean over its devices
    std::size_t fullest_device = 0;    // the device whose memory the row shows: the stage's fullest
};

// Stages in order, each with its devices; or the devices in the report's order. Empty for an empty report.
[[nodiscard]] std::vector<DeviceRow> device_rows(const Report& report, DeviceGrouping grouping);

}  // namespace parasight::gui
