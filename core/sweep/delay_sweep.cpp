#include "sweep/delay_sweep.h"

#include "common/message_text.h"
#include "scenario/scenario_limits.h"
#include "sweep/sweep_axis.h"
#include "units/quantity.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace parasight {

Expected<std::vector<double>> parse_delays(std::string_view text) {
    const auto values = parse_axis_values(text);
    if (!values) return Error{values.error()};
    if (values->size() > max_swept_delays) {
        return Error{std::to_string(values->size()) + " delays; at most " + std::to_string(max_swept_delays)};
    }
    std::vector<double> delays_s;
    for (const std::string& value : *values) {
        const auto delay_s = units::parse_quantity(value, units::Dimension::time);
        if (!delay_s) return Error{in_quotes(value) + ": " + delay_s.error()};
        if (!(*delay_s >= limits::injected_delay.min && *delay_s <= limits::injected_delay.max)) {
            return Error{in_quotes(value) + " is not a delay from 0 s to 1 h"};
        }
        delays_s.push_back(*delay_s);
    }
    return delays_s;
}

namespace {

Scenario with_delay(const ValidatedScenario& scenario, CollectiveDelay rule, double delay_s) {
    Scenario changed = scenario.value();
    rule.delay_s = delay_s;
    changed.what_if.collective_delays.push_back(std::move(rule));
    return changed;
}

SimulationError invalid(std::string message) {
    SimulationError error;
    error.kind = SimulationErrorKind::invalid;
    error.message = std::move(message);
    return error;
}

// The runs' progress as shares of the whole sweep's, told to the caller's sink as one engine phase: run k of n,
// halfway through its engine phase, is (k + 1.5 / 3) / n of the sweep.
class SweepProgress final : public ProgressSink {
public:
    SweepProgress(ProgressSink& sweep, std::size_t runs) noexcept : sweep_(sweep), runs_(static_cast<double>(runs)) {}

    void start_run(std::size_t run) noexcept { run_ = static_cast<double>(run); }
    void progress(SimulationPhase phase, double fraction) override {
        const double phases = static_cast<double>(simulation_phase_names.size());
        const double within_run = (static_cast<double>(phase) + fraction) / phases;
        sweep_.progress(SimulationPhase::engine, (run_ + within_run) / runs_);
    }
    [[nodiscard]] bool cancelled() const override { return sweep_.cancelled(); }

private:
    ProgressSink& sweep_;
    double runs_;
    double run_ = 0.0;
};

// Per simulated device, the time its injected delays take. The scenario's own rules may delay the swept calls too
// (a call's delays add up in one delay task), so the sweep's calls are counted by the time they add, not by tasks.
std::vector<double> injected_delay_s(const Timeline& timeline) {
    std::vector<double> totals(timeline.devices().size(), 0.0);
    for (std::size_t d = 0; d < totals.size(); ++d) {
        for (std::size_t s = 0; s < stream_count; ++s) {
            for (const EventId id : timeline.lane(d, static_cast<Stream>(s))) {
                const TimelineEvent event = timeline.event(id);
                if (event.kind == TaskKind::injected_delay) totals[d] += event.end_s - event.start_s;
            }
        }
    }
    return totals;
}

}  // namespace

Expected<DelaySweep, SimulationError> sweep_delay(const ValidatedScenario& scenario, const CollectiveDelay& rule,
                                                  std::vector<double> delays_s, const SimulateOptions& options) {
    delays_s.push_back(0.0);
    std::sort(delays_s.begin(), delays_s.end());
    delays_s.erase(std::unique(delays_s.begin(), delays_s.end()), delays_s.end());
    if (delays_s.size() < 2) return invalid("no delay above 0 to sweep");
    DelaySweep sweep;
    std::optional<SweepProgress> progress;
    if (options.progress != nullptr) progress.emplace(*options.progress, delays_s.size() + 1);  // and the probe
    // The runs without the delay and with the first one keep their events, to count the delays the rule added.
    std::vector<double> delay_before_s;
    for (std::size_t k = 0; k < delays_s.size(); ++k) {
        SimulateOptions run = options;
        run.timeline = k < 2 ? TimelineDetail::events : TimelineDetail::none;
        if (progress) {
            progress->start_run(k);
            run.progress = &*progress;
        }
        auto simulation = simulate(with_delay(scenario, rule, delays_s[k]), run);
        if (!simulation) return std::move(simulation.error());
        if (k == 0) delay_before_s = injected_delay_s(*simulation->timeline);
        if (k == 1) {
            const std::vector<double> delay_after_s = injected_delay_s(*simulation->timeline);
            for (std::size_t d = 0; d < delay_after_s.size(); ++d) {
                const double calls = std::round((delay_after_s[d] - delay_before_s[d]) / delays_s[1]);
                sweep.delayed_calls = std::max(sweep.delayed_calls, static_cast<std::int64_t>(calls));
            }
            if (sweep.delayed_calls == 0) {
                return invalid("the delay matches no communication of this run: none has its group, operation and "
                               "layers (gradient buckets and pipeline sends belong to no layer)");
            }
        }
        DelaySweepPoint point;
        point.delay_s = delays_s[k];
        point.iteration_time_s = simulation->report.iteration_time_s;
        point.exposed_comm_s = simulation->report.breakdown.exposed_comm_s;
        sweep.points.push_back(point);
    }
    // The iteration is piecewise linear in the delay: a probe far below the smallest swept delay measures the first
    // piece's slope exactly.
    const double probe_s = delays_s[1] * 1e-3;
    SimulateOptions run = options;
    run.timeline = TimelineDetail::none;
    if (progress) {
        progress->start_run(delays_s.size());
        run.progress = &*progress;
    }
    auto probe = simulate(with_delay(scenario, rule, probe_s), run);
    if (!probe) return std::move(probe.error());
    const double baseline_s = sweep.points.front().iteration_time_s;
    sweep.initial_slope = (probe->report.iteration_time_s - baseline_s) / probe_s;
    sweep.hidden_beyond_range = true;
    for (const DelaySweepPoint& point : sweep.points) {
        const double unhidden_s = baseline_s + sweep.initial_slope * point.delay_s;
        if (point.iteration_time_s > unhidden_s + hidden_delay_tolerance * baseline_s) {
            sweep.hidden_beyond_range = false;
            break;
        }
        sweep.hidden_delay_s = point.delay_s;
    }
    const DelaySweepPoint& last = sweep.points.back();
    const DelaySweepPoint& before = sweep.points[sweep.points.size() - 2];
    sweep.slope = (last.iteration_time_s - before.iteration_time_s) / (last.delay_s - before.delay_s);
    return sweep;
}

bool delay_hides_nothing(const DelaySweep& sweep) noexcept {
    const auto calls = static_cast<double>(sweep.delayed_calls);
    return calls > 0.0 && std::abs(sweep.initial_slope - calls) <= hidden_delay_tolerance * calls;
}

}  // namespace parasight
