#include "lesson/lesson_targets.h"

#include "analysis/event_search.h"
#include "scenario_file/scenario_writer.h"
#include "simulation/simulate.h"
#include "sweep/sweep_point.h"
#include "target/target.h"

#include <algorithm>
#include <memory>

namespace parasight {

namespace {

std::string npus_text(const Timeline& timeline) {
    std::string text;
    for (const TimelineDevice& device : timeline.devices()) {
        text += (text.empty() ? "" : ", ") + std::to_string(device.npu);
    }
    return text;
}

}  // namespace

Diagnostics lesson_target_problems(const LessonStep& step, const ValidatedScenario& scenario) {
    std::vector<std::pair<const LocatedText*, Target>> targets;
    const auto add = [&](const LocatedText& text) {
        if (Expected<Target> target = parse_target(text.text)) targets.emplace_back(&text, std::move(target).value());
    };
    for (const LocatedText& text : step.reveal) add(text);
    if (step.spotlight) add(*step.spotlight);

    Diagnostics problems;
    const std::int64_t devices = scenario.value().device_count();
    const std::string yaml = write_scenario_yaml(scenario.value());
    std::shared_ptr<const Timeline> timeline;  // simulated once, when a target needs it
    const auto run_timeline = [&]() -> const Timeline* {
        if (!timeline) {
            SimulateOptions options;
            options.timeline = TimelineDetail::events;
            if (auto simulated = simulate(scenario, options)) timeline = simulated.value().timeline;
        }
        return timeline.get();
    };
    for (const auto& entry : targets) {
        const LocatedText* text = entry.first;  // named, not bound: a lambda below captures them
        const Target& target = entry.second;
        const SourceLocation& where = text->where;
        switch (target.kind) {
            case TargetKind::npu:
            case TargetKind::group:
                if (target.npu >= devices) {
                    problems.push_back({where, text->text + ": the cluster has " + std::to_string(devices) +
                                                   " NPUs, 0 to " + std::to_string(devices - 1), {}});
                }
                break;
            case TargetKind::field:
                if (const auto missing = missing_path(yaml, target.name)) {
                    problems.push_back({where, text->text + ": " + *missing, {}});
                }
                break;
            case TargetKind::device: {
                const Timeline* run = run_timeline();
                if (run == nullptr) break;  // the step does not simulate: said for the step
                const auto& shown = run->devices();
                const bool has_row = std::any_of(shown.begin(), shown.end(),
                                                 [&](const TimelineDevice& device) { return device.npu == target.npu; });
                if (!has_row) {
                    problems.push_back({where, text->text + ": the run's rows are NPUs " + npus_text(*run) +
                                                   " (a device of each class of identical devices)", {}});
                }
                break;
            }
            case TargetKind::events: {
                const Timeline* run = run_timeline();
                const std::optional<EventQuery> query = parse_event_query(target.name);
                if (run == nullptr || !query) break;
                if (find_events(*run, *query).empty()) {
                    problems.push_back({where, text->text + ": no event matches: " + why_nothing_matches(*run, *query), {}});
                }
                break;
            }
            default: break;
        }
    }
    return problems;
}

}  // namespace parasight
