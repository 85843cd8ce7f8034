#include "simulation/steady_state_run.h"

#include "common/message_text.h"
#include "engine/period_divergence.h"

#include <algorithm>

namespace parasight {
namespace {

// A schedule's period can span several of its steps: with stages of unequal time, 1F1B can settle into a pattern
// that repeats every second or third micro-batch (the cyclicity of a max-plus system). The second try looks for
// periods of up to this many steps.
constexpr int longest_cycle = 4;
constexpr std::int64_t cycle_multiple = 12;  // lcm(1, 2, 3, 4): a short run that many steps short of the full one
// Steps for the schedule to settle, in micro-batches: zero-bubble passes fill the gaps step by step (ZB-H1's weight
// gradients move into the bubbles over its first steps), and a schedule that has not repeated by the end of the
// first, shortest try — links shared unevenly, stages of unequal time — gets them on its second.
constexpr std::int64_t settle_micro_batches = 4;

// The short run's micro-batches for periods of up to `cycles` steps of `step` micro-batches: the schedule's warm-up
// (the micro-batches a stage holds in flight), the whole steps that fit in the settling micro-batches where it needs
// them (`settles`; an interleaved group of more is long enough on its own), then on the first try two periods (the
// state at the end of the first is compared with the state at its start, engine/run_states.h, and every task
// starting in it needs its twin a period on), on the second four of the longest periods (enough steps past the
// warm-up for part_falls_behind() to follow), and as many more as make the rest a whole number of every period tried
// (so the last, shorter interleaved group is the same in both runs). The drain needs no micro-batches of its own: it
// is the last ones' backward passes. 1F1B and interleaved schedules repeat from the end of their warm-up on their
// first try in every bundled scenario that repeats at all (GPT-3 175B / 1024: 19 micro-batches of 192).
std::int64_t short_micro_batches(std::int64_t in_flight, int step, int cycles, bool settles,
                                 std::int64_t micro_batches) {
    const std::int64_t settle_steps = settles ? settle_micro_batches / step : 0;
    std::int64_t count = in_flight + (settle_steps + (cycles == 1 ? 2 : 4 * static_cast<std::int64_t>(cycles))) * step;
    const std::int64_t multiple = (cycles == 1 ? 1 : cycle_multiple) * step;
    count += ((micro_batches - count) % multiple + multiple) % multiple;
    return count;
}

// Whether a try settles first: the zero-bubble schedule always, any schedule on its second try.
bool settles_first(const Scenario& scenario, int cycles) {
    return scenario.parallelism.schedule == Schedule::zb_h1 || cycles > 1;
}

SteadyStateUse not_used(std::string reason) {
    SteadyStateUse use;
    use.reason = std::move(reason);
    return use;
}

bool ran_out_of_memory(const EngineRun& run) {
    return std::any_of(run.memory.begin(), run.memory.end(),
                       [](const DeviceMemory& memory) { return memory.over_capacity_task != -2; });
}

// The tasks of the whole schedule: the short run's and the period's `repeats` more times.
std::int64_t repeated_task_count(const EngineRun& short_run, const SteadyPeriod& period, std::int64_t repeats) {
    const double from_s = period.boundary_s - period.period_s;
    const auto in_period = std::count_if(short_run.timings.begin(), short_run.timings.end(), [&](const TaskTiming& t) {
        return t.start_s >= from_s && t.start_s < period.boundary_s;
    });
    return static_cast<std::int64_t>(short_run.timings.size()) + repeats * static_cast<std::int64_t>(in_period);
}

}  // namespace

SteadyStatePlan plan_steady_state(const Scenario& scenario) {
    SteadyStatePlan plan;
    const ParallelismSpec& parallelism = scenario.parallelism;
    if (!scenario.simulation.steady_state) {
        plan.reason = "simulation.steady_state is off";
        return plan;
    }
    if (parallelism.schedule == Schedule::gpipe) {
        plan.reason = "GPipe runs every forward before any backward, so its schedule has no repeating period";
        return plan;
    }
    // 1F1B and ZB-H1 hold at most pp micro-batches in flight and advance one a step. The interleaved schedule
    // advances a micro-batch group a step and warms up with 2(pp − 1) + (v − 1)·N forward steps of v a micro-batch.
    plan.in_flight = parallelism.pp + 1;
    plan.step_micro_batches = 1;
    if (parallelism.schedule == Schedule::interleaved) {
        plan.step_micro_batches = parallelism.micro_batch_group.value_or(parallelism.pp);
        const std::int64_t v = parallelism.virtual_stages;
        const std::int64_t warmup_steps =
            2 * (static_cast<std::int64_t>(parallelism.pp) - 1) + (v - 1) * plan.step_micro_batches;
        plan.in_flight = (warmup_steps + v - 1) / v + 1;
    }
    const std::int64_t micro_batches = scenario.micro_batches();
    const std::int64_t needed =
        short_micro_batches(plan.in_flight, plan.step_micro_batches, 1, settles_first(scenario, 1), micro_batches) +
        plan.step_micro_batches;
    if (needed > micro_batches) {
        plan.reason = "too few micro-batches (" + std::to_string(micro_batches) +
                      ") to repeat a steady period: this schedule needs " + std::to_string(needed);
        return plan;
    }
    plan.repeatable = true;
    return plan;
}

std::int64_t first_run_micro_batches(const Scenario& scenario) {
    const SteadyStatePlan plan = plan_steady_state(scenario);
    if (!plan.repeatable) return scenario.micro_batches();
    return short_micro_batches(plan.in_flight, plan.step_micro_batches, 1, settles_first(scenario, 1),
                               scenario.micro_batches());
}

Expected<ScheduleRun, SimulationError> run_schedule(const ValidatedScenario& validated, const CompileOptions& compile,
                                                    const EngineOptions& engine, bool whole_graph,
                                                    SimulationPhase& phase) {
    ScheduleRun result;
    phase = SimulationPhase::compile;
    const SteadyStatePlan plan = plan_steady_state(validated.value());
    // The whole graph first where it is wanted or will be run whole: the compile phase reports its progress.
    bool compiled = false;
    if (whole_graph || !plan.repeatable) {
        auto graph = compile_scenario(validated, compile);
        if (!graph) return graph.error();
        result.graph = std::move(graph).value();
        compiled = true;
    } else {
        // The whole graph is compiled only where the short runs show that it is needed (inside the engine phase):
        // the compile phase is the check of its size, reported as it starts, so that a front end shows activity at
        // once, and as it ends.
        const PhaseProgress compile_progress(compile.progress, SimulationPhase::compile);
        if (compile_progress.report(0.0)) return cancelled_in(SimulationPhase::compile);
        if (auto refusal = refusal_before_building(validated, compile)) return std::move(*refusal);
        if (compile_progress.report(1.0)) return cancelled_in(SimulationPhase::compile);
    }
    phase = SimulationPhase::engine;
    double reported = 0.0;  // how much of the engine phase the short runs have reported
    // The whole graph compiled only once the short runs have shown it is needed: inside the engine phase (whose
    // progress never goes back), up to `to` of it.
    auto compile_whole = [&](double to) -> std::optional<SimulationError> {
        ProgressWithin compile_progress(engine.progress, SimulationPhase::engine, reported, to);
        CompileOptions whole = compile;
        whole.progress = &compile_progress;
        auto graph = compile_scenario(validated, whole);
        if (!graph) return graph.error();
        result.graph = std::move(graph).value();
        compiled = true;
        reported = to;
        return std::nullopt;
    };
    auto run_whole = [&](std::string reason) -> Expected<ScheduleRun, SimulationError> {
        result.steady_state = not_used(std::move(reason));
        result.period.reset();
        result.repeats = 0;
        if (!compiled) {
            if (auto error = compile_whole(reported + 0.2 * (1.0 - reported))) return std::move(*error);
        }
        // The whole graph reports the rest of the phase.
        ProgressWithin rest(engine.progress, SimulationPhase::engine, reported, 1.0);
        EngineOptions whole = engine;
        if (engine.progress != nullptr) whole.progress = &rest;
        result.run = run_engine(result.graph, whole);
        return std::move(result);
    };
    auto cancelled = [&]() -> Expected<ScheduleRun, SimulationError> {
        result.run = EngineRun{};
        result.run.end = EngineEnd::cancelled;
        return std::move(result);
    };
    if (!plan.repeatable) return run_whole(plan.reason);
    const std::int64_t micro_batches = validated->micro_batches();
    const int step = plan.step_micro_batches;
    // First a period of one step; a schedule that has not settled into one gets a second, longer try that also
    // looks for periods of up to longest_cycle steps.
    std::int64_t tried = 0;
    for (const int cycles : {1, longest_cycle}) {
        const std::int64_t count = short_micro_batches(plan.in_flight, step, cycles,
                                                       settles_first(validated.value(), cycles), micro_batches);
        if (count + step > micro_batches) break;
        tried = count;
        const double from = cycles == 1 ? 0.0 : 0.5;
        reported = from + 0.4;
        CompileOptions short_compile = compile;
        short_compile.micro_batches = count;
        ProgressWithin compile_progress(engine.progress, SimulationPhase::engine, from, from + 0.05);
        short_compile.progress = &compile_progress;
        auto short_graph = compile_scenario(validated, short_compile);
        if (!short_graph) {
            if (short_graph.error().kind == SimulationErrorKind::cancelled) return cancelled();
            break;
        }
        EngineOptions short_engine = engine;
        short_engine.record_memory_timeline = true;
        short_engine.record_start_order = true;
        short_engine.stop_at_over_capacity = false;
        ProgressWithin engine_progress(engine.progress, SimulationPhase::engine, from + 0.05, from + 0.4);
        short_engine.progress = &engine_progress;
        EngineRun short_run = run_engine(*short_graph, short_engine);
        if (short_run.end == EngineEnd::cancelled) return cancelled();
        for (int cycle = 1; cycle <= cycles; ++cycle) {
            const int period_micro_batches = cycle * step;
            if ((micro_batches - count) % period_micro_batches != 0 || count + period_micro_batches > micro_batches) {
                continue;
            }
            const std::int64_t repeats = (micro_batches - count) / period_micro_batches;
            const auto period =
                find_steady_period(*short_graph, short_run, static_cast<int>(count), period_micro_batches, repeats);
            if (!period) continue;
            // A run that stops at its first allocation past the capacity ends where the whole graph's run ends.
            if (engine.stop_at_over_capacity && ran_out_of_memory(short_run)) {
                return run_whole("a device runs out of memory");
            }
            result.steady_state.used = true;
            result.steady_state.period_micro_batches = period_micro_batches;
            result.steady_state.period_s = period->period_s;
            result.steady_state.simulated_micro_batches = count;
            result.steady_state.repeated_micro_batches = repeats * period_micro_batches;
            if (!compiled) {
                if (auto refusal = refusal_of_count(repeated_task_count(short_run, *period, repeats), validated.value(),
                                                    compile)) {
                    return std::move(*refusal);
                }
                // The rest of the engine phase is the repetitions, counted by the analysis.
                if (PhaseProgress(engine.progress, SimulationPhase::engine).report(1.0)) return cancelled();
                result.graph = std::move(short_graph).value();
                result.run = std::move(short_run);
                result.period = *period;
                result.repeats = repeats;
                return result;
            }
            // The period's time cannot be counted from the short run alone: the whole graph is timed from it.
            if (!compiled) {
                if (auto error = compile_whole(reported + 0.1)) return std::move(*error);
            }
            bool stopped = false;
            const PhaseProgress progress =
                PhaseProgress(engine.progress, SimulationPhase::engine).part(reported, 1.0);
            auto run = repeat_steady_period(result.graph, *short_graph, std::move(short_run), static_cast<int>(count),
                                            *period, repeats, engine.record_memory_timeline, progress, stopped);
            if (stopped) return cancelled();
            if (!run) return run_whole("the full schedule's tasks differ from the short run's period");
            result.run = std::move(*run);
            return result;
        }
        if (part_falls_behind(*short_graph, short_run, static_cast<int>(count), step,
                              static_cast<int>(plan.in_flight))) {
            return run_whole("part of the schedule falls further behind every step (a stream slower than the "
                             "rest), so no period repeats");
        }
    }
    return run_whole("the schedule did not settle into a repeating period within " +
                     count_phrase(tried, "micro-batch", "micro-batches"));
}

}  // namespace parasight
