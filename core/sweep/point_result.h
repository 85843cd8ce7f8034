#pragma once
// What a sweep learns at one point: the point's scenario (its name and YAML) and how it came out — simulated (fits,
// or a device ran out of memory), estimated not to fit by the closed-form memory model and not simulated, not a valid
// scenario, or failed to simulate — with the Report of a simulated point. Kept for every point, so that a sweep's
// results say why each point has the numbers it has, or none.

#include "analysis/report.h"
#include "common/enum_names.h"
#include "sweep/sweep_point.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parasight {

enum class PointStatus : std::uint8_t {
    ok,             // simulated, every device fits in memory
    oom,            // simulated; a device needs more than its memory (the Report says which and when)
    oom_estimated,  // not simulated: the closed-form bound exceeds a device's memory (compile/memory_lower_bound.h)
    invalid,        // not a valid scenario: the reason is the loader's
    failed,         // a valid scenario that could not be simulated (too large a graph)
};
inline constexpr std::array<EnumName<PointStatus>, 5> point_status_names{{{PointStatus::ok, "ok"},
                                                                          {PointStatus::oom, "oom"},
                                                                          {PointStatus::oom_estimated, "oom_estimated"},
                                                                          {PointStatus::invalid, "invalid"},
                                                                          {PointStatus::failed, "failed"}}};

// The least memory a device needs against what it has, for oom_estimated.
struct MemoryEstimate {
    double needed_bytes = 0.0;
    double capacity_bytes = 0.0;
};

struct PointResult {
    std::uint64_t point = 0;          // the point's number in its SweepSpace
    std::vector<AxisValue> values;    // the axes' values at the point
    std::string scenario_name;
    std::string scenario_yaml;        // the point's scenario, as the loader read it
    PointStatus status = PointStatus::ok;
    std::string reason;               // invalid, failed: why, in words (the loader's, the simulator's)
    std::optional<Warning> cause;     // oom_estimated (memory_bound_exceeded), a sweep's oom (out_of_memory): why
    std::optional<Report> report;     // ok and oom; without per-device reports
    std::optional<MemoryEstimate> memory_estimate;  // oom_estimated, and a sweep's oom: the device's memory then
};

// A status as a cell or a mark says it: "fits", "OOM", "OOM (est.)", "invalid", "failed".
[[nodiscard]] std::string_view point_status_label(PointStatus status) noexcept;

// Why a point has the status it has, in words: its reason, or its cause worded (export/warning_text.h); empty for a
// point that simply fits.
[[nodiscard]] std::string point_reason(const PointResult& point);

}  // namespace parasight
