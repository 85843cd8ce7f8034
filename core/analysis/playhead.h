#pragma once
// A playhead stepping through one simulated iteration, as a lesson walks a class through a pipeline's warm-up: the
// moments it stops at — wherever a computation starts or ends on any simulated device — and what each device is
// doing at a moment: the computation under way (its operation, layer, micro-batch), and the memory it holds then.

#include "analysis/timeline.h"

#include <optional>
#include <vector>

namespace parasight {

class ScheduleSteps {
public:
    explicit ScheduleSteps(const Timeline& timeline);

    // The first stop after `time_s` (none past the last), and the last stop before it (none before the first).
    [[nodiscard]] std::optional<double> after(double time_s) const;
    [[nodiscard]] std::optional<double> before(double time_s) const;
    [[nodiscard]] const std::vector<double>& stops() const noexcept { return stops_; }

private:
    std::vector<double> stops_;  // increasing, each once
};

struct DeviceAtTime {
    std::size_t device = 0;  // index into Timeline::devices()
    int stage = 0;
    std::int64_t npu = 0;
    std::optional<TimelineEvent> computing;  // the computation under way: started at or before, ending after
    std::optional<double> memory_bytes;      // allocated then; none when the memory was not recorded
};

// Every simulated device at `time_s`, in device order.
[[nodiscard]] std::vector<DeviceAtTime> devices_at(const Timeline& timeline, double time_s);

}  // namespace parasight
