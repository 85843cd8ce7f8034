#pragma once
// What every Report must satisfy, whatever the scenario: a finite, non-negative iteration time and breakdown whose
// parts sum to the iteration time (docs/model.md, "Analysis"), and a finite peak memory whose categories sum to it
// on every device. Empty when it holds,
// otherwise what does not. Shared by the fuzz targets and the in-memory edit test.

#include "analysis/report.h"

#include <cmath>
#include <string>

namespace parasight::testing {

inline std::string report_invariant_violation(const Report& report) {
    const auto finite_and_not_negative = [](double value) { return std::isfinite(value) && value >= 0.0; };
    if (!finite_and_not_negative(report.iteration_time_s)) return "iteration time is not a finite, non-negative time";
    const TimeBreakdown& b = report.breakdown;
    double sum = 0.0;
    for (const double part : {b.compute_s, b.exposed_local_memory_s, b.exposed_remote_memory_s, b.bubble_s, b.idle_s}) {
        if (!finite_and_not_negative(part)) return "a breakdown part is negative or not finite";
        sum += part;
    }
    for (const double exposed : b.exposed_comm_s) {
        if (!finite_and_not_negative(exposed)) return "an exposed-communication part is negative or not finite";
        sum += exposed;
    }
    if (std::fabs(sum - report.iteration_time_s) > 1e-9 * std::fmax(1.0, report.iteration_time_s)) {
        return "the breakdown sums to " + std::to_string(sum) + " s, not the iteration time " +
               std::to_string(report.iteration_time_s) + " s";
    }
    if (!finite_and_not_negative(report.peak_memory_bytes)) return "peak memory is negative or not finite";
    // Each device's categories at its peak are that peak, split: the memory view stacks them up to it.
    for (const DeviceReport& device : report.per_device) {
        double categories = 0.0;
        for (const double bytes : device.memory_at_peak_bytes) {
            if (!finite_and_not_negative(bytes)) return "a memory category is negative or not finite";
            categories += bytes;
        }
        if (std::fabs(categories - device.peak_memory_bytes) > 1e-9 * std::fmax(1.0, device.peak_memory_bytes)) {
            return "NPU " + std::to_string(device.npu) + "'s memory categories sum to " + std::to_string(categories) +
                   " B, not its peak " + std::to_string(device.peak_memory_bytes) + " B";
        }
    }
    return {};
}

}  // namespace parasight::testing
