#pragma once
// What-if changes to a run (NeuronaBox, Liu et al. 2024 §3.3 and Fig. 4): a fixed delay added to chosen
// collectives, chosen devices computing slower (stragglers), chosen links running below their bandwidth. Each is a
// rule written in the scenario's `what_if:` section (docs/what-if.md); the compiler applies them.

#include "common/enum_names.h"
#include "common/expected.h"
#include "diagnostics/diagnostic.h"
#include "topology/parallel_layout.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parasight {

// The communications a delay can target: the collective operations the simulator runs, and pipeline sends.
enum class CommOperation : std::uint8_t { all_reduce, reduce_scatter, all_gather, all_to_all, send };
extern const std::array<EnumName<CommOperation>, 5> comm_operation_names;  // "all-reduce", …, "send"

// Model layers first..last, both included, counting from 0.
struct LayerRange {
    int first = 0;
    int last = 0;

    [[nodiscard]] bool contains(int layer) const noexcept { return layer >= first && layer <= last; }
    friend bool operator==(const LayerRange&, const LayerRange&) = default;
};

// Every matching communication takes delay_s longer once all its members have reached it, as NeuronaBox delays a
// collective. An unset selector matches everything; a layer range matches only communications inside layers.
struct CollectiveDelay {
    std::optional<ParallelAxis> group;
    std::optional<CommOperation> operation;
    std::optional<LayerRange> layers;
    double delay_s = 0.0;
    SourceLocation location;  // where the entry was written; not part of equality

    friend bool operator==(const CollectiveDelay& a, const CollectiveDelay& b) {
        return a.group == b.group && a.operation == b.operation && a.layers == b.layers && a.delay_s == b.delay_s;
    }
};

// The computations of these NPUs take compute_time_factor times as long (1.25: a device running at 80% speed).
struct SlowDevices {
    std::vector<std::int64_t> npus;
    double compute_time_factor = 1.0;
    SourceLocation location;

    friend bool operator==(const SlowDevices& a, const SlowDevices& b) {
        return a.npus == b.npus && a.compute_time_factor == b.compute_time_factor;
    }
};

// Links that move data at bandwidth_factor times their bandwidth: one dimension's (unset: every dimension's), of the
// listed NPUs (empty: every NPU's). A communication runs at the pace of its slowest member's links.
struct DegradedLinks {
    std::optional<int> dimension;
    std::vector<std::int64_t> npus;
    double bandwidth_factor = 1.0;
    SourceLocation location;

    friend bool operator==(const DegradedLinks& a, const DegradedLinks& b) {
        return a.dimension == b.dimension && a.npus == b.npus && a.bandwidth_factor == b.bandwidth_factor;
    }
};

// "what_if.slow_devices[2]": the scenario path diagnostics name the rule at `index` of the list `list` by.
[[nodiscard]] std::string what_if_rule_path(std::string_view list, std::size_t index);

// "5" or "0..3": layers as a delay rule names them, from 0 to limits::what_if_layer's end, the smaller first; the
// reason when the text is not such a range.
[[nodiscard]] Expected<LayerRange> parse_layer_range(std::string_view text);

// The communications a rule delays, in words: "every dp all-reduce in layers 0..3", "every send", "every
// communication".
[[nodiscard]] std::string delay_rule_words(const CollectiveDelay& rule);

struct WhatIfSpec {
    std::vector<CollectiveDelay> collective_delays;
    std::vector<SlowDevices> slow_devices;
    std::vector<DegradedLinks> degraded_links;

    [[nodiscard]] bool empty() const noexcept {
        return collective_delays.empty() && slow_devices.empty() && degraded_links.empty();
    }
    friend bool operator==(const WhatIfSpec&, const WhatIfSpec&) = default;
};

}  // namespace parasight
