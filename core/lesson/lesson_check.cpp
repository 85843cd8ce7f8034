#include "lesson/lesson_check.h"

#include "common/message_text.h"
#include "lesson/lesson_number.h"
#include "lesson/lesson_sweep.h"
#include "lesson/lesson_targets.h"
#include "lesson/lesson_text.h"
#include "presets/preset_library.h"
#include "scenario_file/scenario_writer.h"
#include "simulation/simulate.h"
#include "sweep/sweep_point.h"
#include "target/target.h"

#include <algorithm>
#include <cmath>
#include <thread>
#include <tuple>

namespace parasight {
namespace {

SourceLocation shifted(SourceLocation where, std::size_t offset) {
    if (where.column > 0) where.column += static_cast<int>(offset);
    return where;
}

// The step's base scenario as the writer writes it (every field, so that any path can be set), or its problem.
Expected<std::string, Diagnostic> base_yaml(const Lesson& lesson, const LessonScenario& scenario) {
    LoadResult loaded;
    if (!scenario.preset.empty()) {
        const Preset* preset = find_preset(PresetKind::scenario, scenario.preset);
        if (preset == nullptr) {
            const auto ids = preset_ids(PresetKind::scenario);
            return Diagnostic{scenario.where,
                              "no scenario preset " + in_quotes(scenario.preset) + did_you_mean_suffix(scenario.preset, ids) +
                                  "; the presets are " + join_alternatives(ids),
                              {}};
        }
        loaded = load_scenario_text(preset->text, std::string(preset->file));
    } else {
        loaded = load_scenario_file(lesson.directory / scenario.file);
    }
    if (!loaded.ok()) {
        const Diagnostic& first = loaded.diagnostics.front();
        return Diagnostic{scenario.where, "the scenario does not load: " + first.to_string(), {}};
    }
    return write_scenario_yaml(loaded.scenario->value());
}

}  // namespace

std::vector<AxisValue> lesson_variant_values(const Lesson& lesson, int variant) {
    std::vector<AxisValue> values;
    if (variant <= 0) return values;
    for (std::size_t i = 0; i < lesson.variants.size(); ++i) {
        const LessonVariant& field = lesson.variants[i];
        if (field.values.empty()) continue;
        const std::size_t chosen = (static_cast<std::size_t>(variant) - 1 + i) % field.values.size();
        values.push_back({field.path, field.values[chosen].text});
    }
    return values;
}

LoadResult lesson_step_scenario(const Lesson& lesson, std::size_t index, int variant) {
    const LessonStep& step = lesson.steps.at(index);
    Expected<std::string, Diagnostic> base = base_yaml(lesson, step.scenario);
    if (!base) {
        LoadResult refused;
        refused.diagnostics.push_back(std::move(base).error());
        return refused;
    }
    // Where each value set was written: the step's set, then the variant's fields the step does not set.
    std::vector<AxisValue> values;
    std::vector<SourceLocation> written;
    for (const auto& [path, value] : step.scenario.set) {
        values.push_back({path, value.text});
        written.push_back(value.where);
    }
    const std::vector<AxisValue> varied = lesson_variant_values(lesson, variant);
    for (std::size_t i = 0; i < varied.size(); ++i) {
        const bool set_by_step = std::any_of(step.scenario.set.begin(), step.scenario.set.end(),
                                             [&](const auto& entry) { return entry.first == varied[i].path; });
        if (set_by_step) continue;
        values.push_back(varied[i]);
        const LessonVariant& field = lesson.variants[i];
        written.push_back(field.values[(static_cast<std::size_t>(variant) - 1 + i) % field.values.size()].where);
    }
    LoadResult loaded = scenario_at(base.value(), values, lesson.file + " steps[" + std::to_string(index) + "]",
                                    lesson.directory);
    // The loader speaks of the scenario it made; the lesson's reader wants the place in the lesson.
    for (Diagnostic& problem : loaded.diagnostics) {
        // By the path it is about — or, for a value the reader refused, the path its message starts with.
        const auto set = std::find_if(values.begin(), values.end(), [&](const AxisValue& value) {
            const std::string_view message = problem.message;
            return value.path == problem.path ||
                   (problem.path.empty() && message.starts_with(value.path) && message.size() > value.path.size() &&
                    (message[value.path.size()] == ' ' || message[value.path.size()] == ':'));
        });
        problem.location = set != values.end() ? written[static_cast<std::size_t>(set - values.begin())]
                                               : step.scenario.where;
    }
    return loaded;
}

Expected<LessonRun, Diagnostic> simulate_lesson_step(const Lesson& lesson, std::size_t index,
                                                     const ValidatedScenario& scenario) {
    // A CNN's run keeps its timeline: the oracle's comparison measures busy times on it.
    const bool cnn = scenario.value().model.kind == ModelKind::cnn;
    SimulateOptions options;
    options.timeline = cnn ? TimelineDetail::events : TimelineDetail::none;
    auto simulated = simulate(scenario, options);
    if (!simulated) {
        return Diagnostic{lesson.steps.at(index).scenario.where,
                          "the step does not simulate: " + simulated.error().message, {}};
    }
    LessonRun run{simulated.value().report, std::nullopt};
    if (cnn) {
        if (auto oracle = compare_oracle_with_simulation(scenario, simulated.value())) run.oracle = std::move(oracle).value();
    }
    return run;
}

std::vector<std::optional<LessonRun>> simulate_lesson(const Lesson& lesson, int variant) {
    std::vector<std::optional<LessonRun>> runs(lesson.steps.size());
    for (std::size_t index = 0; index < lesson.steps.size(); ++index) {
        const LoadResult scenario = lesson_step_scenario(lesson, index, variant);
        if (!scenario.ok()) continue;
        if (Expected<LessonRun, Diagnostic> run = simulate_lesson_step(lesson, index, *scenario.scenario)) {
            runs[index] = std::move(run).value();
        }
    }
    return runs;
}

std::vector<int> earlier_steps_named(const Lesson& lesson, std::size_t index) {
    const LessonStep& step = lesson.steps.at(index);
    std::vector<std::string> expressions = lesson_text_expressions(step.text);
    if (step.question) {
        expressions.push_back(step.question->answer.text);
        for (std::string& text : lesson_text_expressions(step.question->explanation)) expressions.push_back(std::move(text));
    }
    if (step.challenge) expressions.push_back(step.challenge->expression.text);
    std::vector<int> named;
    for (const std::string& text : expressions) {
        if (const auto expression = ReportExpression::parse(text)) {
            for (const int k : expression.value().steps()) named.push_back(k);
        }
    }
    std::sort(named.begin(), named.end());
    named.erase(std::unique(named.begin(), named.end()), named.end());
    std::erase_if(named, [&](int k) { return k < 1 || static_cast<std::size_t>(k) > index; });
    return named;
}

Expected<ReportExpression, Diagnostic> lesson_expression(const LocatedText& text) {
    Expected<ReportExpression, ExpressionProblem> parsed = ReportExpression::parse(text.text);
    if (!parsed) return Diagnostic{shifted(text.where, parsed.error().offset), parsed.error().message, {}};
    return std::move(parsed).value();
}

Expected<double> evaluate_in_lesson(const ReportExpression& expression,
                                    const std::vector<std::optional<LessonRun>>& runs, std::size_t index) {
    for (const int step : expression.steps()) {
        const auto k = static_cast<std::size_t>(step);
        if (k > index) {
            return Error{expression.text() + ": step[" + std::to_string(step) + "] is not an earlier step (this is step " +
                         std::to_string(index + 1) + ")"};
        }
        if (k == 0 || k > runs.size() || !runs[k - 1]) {
            return Error{expression.text() + ": step[" + std::to_string(step) + "] has no run"};
        }
    }
    if (index >= runs.size() || !runs[index]) return Error{expression.text() + ": this step has no run"};
    return expression.evaluate([&](int step, const std::string& name) {
        return lesson_run_value(step == 0 ? *runs[index] : *runs[static_cast<std::size_t>(step) - 1], name);
    });
}

bool within_tolerance(double guess, double answer, double tolerance) noexcept {
    if (answer == 0.0) return guess == 0.0;
    return std::abs(guess - answer) <= tolerance * std::abs(answer);
}

ChallengeVerdict judge_challenge(const LessonChallenge& challenge, const ReportExpression& expression,
                                 const std::vector<std::optional<LessonRun>>& runs, std::size_t index,
                                 const std::string& step_yaml, const std::string& run_yaml) {
    const std::vector<AxisValue> set = scalar_values(step_yaml);
    const std::vector<AxisValue> now = scalar_values(run_yaml);
    const auto value_at = [](const std::vector<AxisValue>& values, const std::string& path) -> std::string {
        for (const AxisValue& value : values) {
            if (value.path == path) return value.value;
        }
        return {};
    };
    for (const LocatedText& kept : challenge.keep) {
        const std::string was = value_at(set, kept.text);
        const std::string is = value_at(now, kept.text);
        if (was != is) return {false, kept.text + " is " + is + ", not " + was + " as the step set it"};
    }
    const Expected<double> value = evaluate_in_lesson(expression, runs, index);
    if (!value) return {false, value.error()};
    const bool met = challenge.below ? value.value() < *challenge.below : value.value() > *challenge.above;
    const std::string bound = challenge.below ? "below " + lesson_number_text(*challenge.below)
                                              : "above " + lesson_number_text(*challenge.above);
    return {met, (met ? "met: " : "not yet: ") + expression.text() + " is " + lesson_number_text(value.value()) +
                     (met ? ", " : ", not ") + bound};
}

namespace {

// Each variant's steps load and simulate and their questions have answers; the claims describe the lesson as written.
void check_variants(const Lesson& lesson, Diagnostics& problems) {
    std::size_t variants = 0;
    for (const LessonVariant& field : lesson.variants) variants = std::max(variants, field.values.size());
    for (int variant = 1; variant <= static_cast<int>(variants); ++variant) {
        const std::string said = "variant " + std::to_string(variant) + ": ";
        std::vector<std::optional<LessonRun>> runs(lesson.steps.size());
        for (std::size_t index = 0; index < lesson.steps.size(); ++index) {
            const LoadResult scenario = lesson_step_scenario(lesson, index, variant);
            if (!scenario.ok()) {
                for (Diagnostic problem : scenario.diagnostics) {
                    problem.message = said + problem.message;
                    problems.push_back(std::move(problem));
                }
                continue;
            }
            Expected<LessonRun, Diagnostic> run = simulate_lesson_step(lesson, index, *scenario.scenario);
            if (!run) {
                Diagnostic problem = std::move(run).error();
                problem.message = said + problem.message;
                problems.push_back(std::move(problem));
                continue;
            }
            runs[index] = std::move(run).value();
            const LessonStep& step = lesson.steps[index];
            if (!step.question) continue;
            const Expected<ReportExpression, Diagnostic> expression = lesson_expression(step.question->answer);
            if (!expression) continue;  // said for the lesson as written
            if (const Expected<double> answer = evaluate_in_lesson(expression.value(), runs, index); !answer) {
                problems.push_back({step.question->answer.where, said + answer.error(), {}});
            }
        }
    }
}

}  // namespace

Diagnostics check_lesson(const Lesson& lesson) {
    Diagnostics problems;
    std::vector<std::optional<LessonRun>> runs(lesson.steps.size());
    const auto tabs = target_tab_names();
    for (std::size_t index = 0; index < lesson.steps.size(); ++index) {
        const LessonStep& step = lesson.steps[index];
        if (!step.tab.empty() && std::find(tabs.begin(), tabs.end(), step.tab) == tabs.end()) {
            problems.push_back({step.tab_where,
                                "no tab " + in_quotes(step.tab) + did_you_mean_suffix(step.tab, tabs) + "; the tabs are " +
                                    join_alternatives(tabs),
                                {}});
        }
        std::vector<const LocatedText*> targets;
        for (const LocatedText& target : step.reveal) targets.push_back(&target);
        if (step.spotlight) targets.push_back(&*step.spotlight);
        for (const LocatedText* target : targets) {
            if (Expected<Target> parsed = parse_target(target->text); !parsed) {
                problems.push_back({target->where, parsed.error(), {}});
            }
        }
        const LoadResult scenario = lesson_step_scenario(lesson, index);
        if (!scenario.ok()) {
            problems.insert(problems.end(), scenario.diagnostics.begin(), scenario.diagnostics.end());
        } else if (Expected<LessonRun, Diagnostic> run = simulate_lesson_step(lesson, index, *scenario.scenario)) {
            runs[index] = std::move(run).value();
            const Diagnostics found = lesson_target_problems(step, *scenario.scenario);
            problems.insert(problems.end(), found.begin(), found.end());
        } else {
            problems.push_back(std::move(run).error());
        }
        const auto evaluated = [&](const LocatedText& text) -> std::optional<double> {
            Expected<ReportExpression, Diagnostic> expression = lesson_expression(text);
            if (!expression) {
                problems.push_back(std::move(expression).error());
                return std::nullopt;
            }
            Expected<double> value = evaluate_in_lesson(expression.value(), runs, index);
            if (!value) {
                if (runs[index]) problems.push_back({text.where, value.error(), {}});
                return std::nullopt;
            }
            return value.value();
        };
        if (step.question) static_cast<void>(evaluated(step.question->answer));
        // The run's numbers in the step's text and its question's explanation: each reads, and has a value.
        std::vector<std::tuple<const std::string*, SourceLocation, std::string>> texts{
            {&step.text, step.text_where, "steps[" + std::to_string(index) + "].text"}};
        if (step.question) {
            texts.emplace_back(&step.question->explanation, step.question->explanation_where,
                               "steps[" + std::to_string(index) + "].question.explain");
        }
        for (const auto& [text, where, what] : texts) {
            const Diagnostics found = lesson_text_problems(*text, where, what);
            problems.insert(problems.end(), found.begin(), found.end());
            if (!found.empty() || !runs[index]) continue;
            for (const std::string& expression : lesson_text_expressions(*text)) {
                const Expected<double> value = evaluate_in_lesson(ReportExpression::parse(expression).value(), runs, index);
                if (!value) problems.push_back({where, what + ": {{" + expression + "}}: " + value.error(), {}});
            }
        }
        if (step.challenge && scenario.ok()) {
            const std::string step_yaml = write_scenario_yaml(scenario.scenario->value());
            const ScenarioPaths paths(step_yaml);
            for (const LocatedText& kept : step.challenge->keep) {
                if (const auto missing = paths.missing(kept.text)) problems.push_back({kept.where, *missing, {}});
            }
            Expected<ReportExpression, Diagnostic> expression = lesson_expression(step.challenge->expression);
            if (!expression) {
                problems.push_back(std::move(expression).error());
            } else if (runs[index]) {
                // A challenge the step meets as it is asks nothing of the students.
                const ChallengeVerdict verdict =
                    judge_challenge(*step.challenge, expression.value(), runs, index, step_yaml, step_yaml);
                if (verdict.met) {
                    problems.push_back({step.challenge->where,
                                        "the challenge is met before anything changes (" + verdict.said + ")", {}});
                }
            }
        }
        if (step.sweep && scenario.ok()) {
            const unsigned cores = std::thread::hardware_concurrency();
            const auto sweep = run_lesson_sweep(*step.sweep, scenario.scenario->value(), lesson.directory,
                                                static_cast<int>(std::clamp(cores, 1U, 4U)));
            const Diagnostics found = sweep ? check_lesson_sweep_best(*step.sweep, sweep.value()) : sweep.error();
            problems.insert(problems.end(), found.begin(), found.end());
        }
        for (const LessonClaim& claim : step.claims) {
            const std::optional<double> value = evaluated(claim.expression);
            if (value && !within_tolerance(claim.value, *value, claim.tolerance)) {
                problems.push_back({claim.expression.where,
                                    "the lesson says " + claim.expression.text + " is " + lesson_number_text(claim.value) +
                                        ", the simulation gives " + lesson_number_text(*value) + " (more than " +
                                        lesson_number_text(100.0 * claim.tolerance) + "% apart)",
                                    {}});
            }
        }
    }
    check_variants(lesson, problems);
    return problems;
}

}  // namespace parasight
