#pragma once
// What the result views show of each pipeline stage's devices, computed once here rather than by each view: the
// mean time breakdown (weighted as the report's totals are: analysis/stage_sum.h), the busiest device's compute and
// the fullest device, whose memory a stage row shows.

#include "analysis/report.h"

#include <cstddef>
#include <vector>

namespace parasight {

struct StageFigures {
    int stage = 0;
    std::vector<std::size_t> devices;  // into Report::per_device, in its order
    TimeBreakdown mean_breakdown;      // over the real devices the simulated ones stand for
    // The longest one device of the stage computes, its kernels' wait on its memory included.
    double busiest_compute_s = 0.0;
    std::size_t fullest_device = 0;    // the device with the highest peak memory (the first of equals)
};

// One per stage that has a simulated device, in stage order; empty for a report without devices.
[[nodiscard]] std::vector<StageFigures> stage_figures(const Report& report);

// The device of `devices` (into Report::per_device) with the highest peak memory, the first of equals; `devices` is
// not empty.
[[nodiscard]] std::size_t fullest_device(const Report& report, const std::vector<std::size_t>& devices);
// Of every device.
[[nodiscard]] std::size_t fullest_device(const Report& report);

}  // namespace parasight
