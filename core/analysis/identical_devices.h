#pragma once
// Which simulated devices did exactly the same thing in an iteration: the same events (kind, operation, layer,
// micro-batch) on the same streams at the same times. With every device simulated most of a pipeline stage is alike
// — its tp, dp, cp and ep peers run the same schedule — so a view shows each such class once ("×N") and lists its
// members on request; devices that differ (a collective that crossed a busier link) stand apart. Devices of two
// stages are never alike. Times count as equal within a picosecond or a billionth of the time, whichever is larger
// (the engine adds the same durations in another order on another device).
//
// Built on the worker that simulated the iteration, in time linear in the events; immutable afterwards.

#include "analysis/timeline.h"

#include <cstddef>
#include <span>
#include <vector>

namespace parasight {

class IdenticalDevices {
public:
    [[nodiscard]] static IdenticalDevices of(const Timeline& timeline);

    // Classes in order of their first device (the timeline's device order); each lists its devices in that order.
    [[nodiscard]] std::size_t class_count() const noexcept { return class_offsets_.size() - 1; }
    [[nodiscard]] std::span<const std::size_t> members(std::size_t class_index) const;
    [[nodiscard]] std::size_t class_of(std::size_t device) const { return class_of_.at(device); }

private:
    std::vector<std::size_t> class_of_;        // by device
    std::vector<std::size_t> class_offsets_{0};  // into members_, by class, + 1
    std::vector<std::size_t> members_;
};

// The devices to read for figures that are the same on identical devices, each with the real devices it stands for:
// every simulated device with its weight, or, given `classes`, each class's first member for the whole class (a 64th
// of the events of GPT-3 on 1024 GPUs with every device simulated).
struct DeviceToRead {
    std::size_t device = 0;
    double weight = 1.0;
};
[[nodiscard]] std::vector<DeviceToRead> devices_to_read(const Timeline& timeline, const IdenticalDevices* classes);

}  // namespace parasight
