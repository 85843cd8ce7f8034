#pragma once
// NeuronaBox's delay sweep (Liu et al. 2024 §3.3, Fig. 4): the iteration time with a fixed delay added to chosen
// communications, over a range of delays. The calls that nothing follows (the last gradient bucket of an iteration)
// add their delay at once: the initial slope counts them. The others hide theirs in the computation they ran beside
// until the delay outgrows that overlap window; past that knee the iteration grows faster, by the delay times every
// delayed call on the critical path. The hidden delay is the knee: the largest delay the overlap absorbs, within 1%
// of the iteration, beyond what the calls at the initial slope add.

#include "analysis/breakdown.h"
#include "common/expected.h"
#include "common/simulation_error.h"
#include "scenario/validated_scenario.h"
#include "simulation/simulate.h"

#include <array>
#include <optional>
#include <vector>

namespace parasight {

// A delay is hidden while the iteration stays within this fraction of its time at 0 of what the calls nothing hides
// add (DelaySweep::hidden_delay_s).
inline constexpr double hidden_delay_tolerance = 0.01;

// The most delays one sweep takes.
inline constexpr std::size_t max_swept_delays = 1000;

// The delays of a sweep written as a list ("1ms,2ms,5ms") or a range ("0..10ms+0.5ms", "1us..1ms x2"), as sweep
// axes are (sweep/sweep_axis.h): each a time from 0 to limits::injected_delay, at most max_swept_delays of them.
[[nodiscard]] Expected<std::vector<double>> parse_delays(std::string_view text);

struct DelaySweepPoint {
    double delay_s = 0.0;
    double iteration_time_s = 0.0;
    std::array<double, comm_group_count> exposed_comm_s{};  // mean over the simulated devices
};

struct DelaySweep {
    std::vector<DelaySweepPoint> points;  // by increasing delay; the first is delay 0 (the run as it is)
    // Extra iteration time per unit of delay for the smallest delays: the delayed calls nothing can hide, measured
    // with a delay a thousandth of the smallest swept one.
    double initial_slope = 0.0;
    // The largest swept delay d that, with every smaller one, keeps the iteration within 1% of its time at 0 of the
    // line T(0) + initial_slope × d; 0 when even the smallest swept delay lies past the knee.
    double hidden_delay_s = 0.0;
    bool hidden_beyond_range = false;  // even the largest swept delay hid: the knee lies further out
    // Extra iteration time per unit of delay between the last two points: past the knee, the delayed calls on the
    // critical path.
    double slope = 0.0;
    // Communications each simulated device delays per iteration: the most on any of them.
    std::int64_t delayed_calls = 0;
};

// Whether the overlap hides none of the delay: every delayed call adds its whole delay from the smallest one on (the
// slope below the knee is the count of delayed calls, within the tolerance) — a communication the computation waits
// for, such as a tensor-parallel all-reduce, or one whose slack the scenario's own delays used up. Then there is no
// knee to speak of, whatever hidden_delay_s says.
[[nodiscard]] bool delay_hides_nothing(const DelaySweep& sweep) noexcept;

// Runs `scenario` with `rule` added to its what-if collective delays (rule.delay_s set to each of `delays_s`, and
// to 0 for the first point; the values must be 0 or more, at most limits::injected_delay). An error when no delay
// is above 0, when the rule delays no communication of this run, or when a run fails (the first failure).
// options.progress hears the whole sweep as one engine phase going from 0 to 1 over every run; when it asks to stop,
// the sweep ends with SimulationErrorKind::cancelled.
[[nodiscard]] Expected<DelaySweep, SimulationError> sweep_delay(const ValidatedScenario& scenario,
                                                                const CollectiveDelay& rule,
                                                                std::vector<double> delays_s,
                                                                const SimulateOptions& options);

}  // namespace parasight
