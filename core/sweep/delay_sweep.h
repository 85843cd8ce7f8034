#pragma once
// NeuronaBox's delay sweep (Zhang et al. 2024 §3.3, Fig. 4): the iteration time with a fixed delay added to chosen
// communications, over a range of delays. While the delay fits in the time those communications already ran beside
// computation, the iteration barely changes; past that knee it grows by the delay times the delayed calls that lie
// on the critical path. The largest delay that costs at most 1% is the "hidden" delay.

#include "analysis/breakdown.h"
#include "common/expected.h"
#include "common/simulation_error.h"
#include "scenario/validated_scenario.h"
#include "simulation/simulate.h"

#include <array>
#include <optional>
#include <vector>

namespace parasight {

// A delay is hidden while it lengthens the iteration by at most this fraction.
inline constexpr double hidden_delay_tolerance = 0.01;

struct DelaySweepPoint {
    double delay_s = 0.0;
    double iteration_time_s = 0.0;
    std::array<double, comm_group_count> exposed_comm_s{};  // mean over the simulated devices
};

struct DelaySweep {
    std::vector<DelaySweepPoint> points;  // by increasing delay; the first is delay 0 (the run as it is)
    // The largest swept delay that, with every smaller one, lengthens the iteration by at most 1%; 0 when the
    // first delay past 0 already costs more.
    double hidden_delay_s = 0.0;
    bool hidden_beyond_range = false;  // even the largest swept delay hid: the knee lies further out
    // Extra iteration time per unit of delay between the last two points: the delayed calls on the critical path
    // once the delay is past the knee.
    double slope = 0.0;
    // Communications each simulated device delays per iteration: the most on any of them.
    std::int64_t delayed_calls = 0;
};

// Runs `scenario` with `rule` added to its what-if collective delays (rule.delay_s set to each of `delays_s`, and
// to 0 for the first point; the values must be 0 or more, at most limits::injected_delay). An error when no delay
// is above 0, when the rule delays no communication of this run, or when a run fails (the first failure).
[[nodiscard]] Expected<DelaySweep, SimulationError> sweep_delay(const ValidatedScenario& scenario,
                                                                const CollectiveDelay& rule,
                                                                std::vector<double> delays_s,
                                                                const SimulateOptions& options);

}  // namespace parasight
