#include "published_case.h"

#include "common/did_you_mean.h"
#include "common/enum_names.h"
#include "units/quantity.h"

#include <yaml-cpp/yaml.h>

#include <array>
#include <optional>
#include <stdexcept>

namespace parasight::validation {
namespace {

const std::array<EnumName<Metric>, 12> metric_names{{
    {Metric::busbw, "busbw"},
    {Metric::collective_time, "collective_time"},
    {Metric::iteration_time, "iteration_time"},
    {Metric::model_tflops, "model_tflops"},
    {Metric::hardware_tflops, "hardware_tflops"},
    {Metric::mfu, "mfu"},
    {Metric::model_states, "model_states"},
    {Metric::layer_forward, "layer_forward"},
    {Metric::layer_backward, "layer_backward"},
    {Metric::optimizer_step, "optimizer_step"},
    {Metric::strategy_speedup, "strategy_speedup"},
    {Metric::out_of_memory, "out_of_memory"},
}};

// The unit a published value of this metric is written in; none for a plain fraction.
std::optional<units::Dimension> metric_dimension(Metric metric) {
    switch (metric) {
    case Metric::busbw: return units::Dimension::bandwidth;
    case Metric::collective_time:
    case Metric::iteration_time:
    case Metric::layer_forward:
    case Metric::layer_backward:
    case Metric::optimizer_step: return units::Dimension::time;
    case Metric::model_tflops:
    case Metric::hardware_tflops: return units::Dimension::flop_rate;
    case Metric::model_states: return units::Dimension::size;
    case Metric::mfu:
    case Metric::strategy_speedup:
    case Metric::out_of_memory: return std::nullopt;
    }
    return std::nullopt;
}

[[noreturn]] void fail(const std::filesystem::path& file, const YAML::Node& node, const std::string& message) {
    const YAML::Mark mark = node.Mark();
    throw std::runtime_error(file.string() + ":" + std::to_string(mark.line + 1) + ":" +
                             std::to_string(mark.column + 1) + ": " + message);
}

std::string text(const std::filesystem::path& file, const YAML::Node& entry, const char* key) {
    const YAML::Node value = entry[key];
    if (!value || !value.IsScalar() || value.Scalar().empty()) fail(file, entry, std::string("needs `") + key + "`");
    return value.Scalar();
}

bool is_collective(Metric metric) { return metric == Metric::busbw || metric == Metric::collective_time; }

PublishedCase read_case(const std::filesystem::path& file, const YAML::Node& entry) {
    if (!entry.IsMap()) fail(file, entry, "a case is a mapping");
    PublishedCase c;
    c.line = entry.Mark().line + 1;
    c.id = text(file, entry, "id");
    c.check = text(file, entry, "check");
    c.source = text(file, entry, "source");
    c.exercises = text(file, entry, "exercises");
    if (entry["stack"]) c.stack = text(file, entry, "stack");
    c.scenario = text(file, entry, "scenario");
    const auto metric = value_of(text(file, entry, "metric"), metric_names);
    if (!metric) fail(file, entry["metric"], "unknown metric; expected " + join_alternatives(names_of(metric_names)));
    c.metric = *metric;
    if (is_collective(c.metric)) {
        const YAML::Node collective = entry["collective"];
        if (!collective || !collective.IsMap()) {
            fail(file, entry, "a collective metric needs `collective: {op, size, group}`");
        }
        c.collective_op = text(file, collective, "op");
        c.collective_size = text(file, collective, "size");
        c.collective_group = text(file, collective, "group");
    }
    if (c.metric == Metric::strategy_speedup) {
        c.best_strategy = text(file, entry, "best");
        c.worst_strategy = text(file, entry, "worst");
    }
    const std::string published = text(file, entry, "published");
    if (c.metric == Metric::out_of_memory) {
        if (published != "true" && published != "false") {
            fail(file, entry["published"], "`published` is true (the run ran out of memory) or false (it ran)");
        }
        if (entry["bound"]) fail(file, entry["bound"], "an out_of_memory case has no bound: it agrees or it does not");
        c.published = published == "true" ? 1.0 : 0.0;
        return c;
    }
    if (const auto dimension = metric_dimension(c.metric)) {
        const auto value = units::parse_quantity(published, *dimension);
        if (!value) fail(file, entry["published"], value.error());
        c.published = *value;
    } else {
        try {
            c.published = std::stod(published);
        } catch (const std::exception&) {
            fail(file, entry["published"],
                 "`published` must be a number for " + std::string(name_of(c.metric, metric_names)));
        }
    }
    try {
        c.bound = std::stod(text(file, entry, "bound"));
    } catch (const std::exception&) {
        fail(file, entry["bound"], "`bound` must be a fraction, e.g. 0.05");
    }
    if (!(c.published > 0.0)) fail(file, entry["published"], "`published` must be more than zero");
    if (!(c.bound > 0.0 && c.bound < 1.0)) fail(file, entry["bound"], "`bound` must be a fraction between 0 and 1");
    return c;
}

}  // namespace

std::vector<PublishedCase> read_published_cases(const std::filesystem::path& file) {
    YAML::Node root;
    try {
        root = YAML::LoadFile(file.string());
    } catch (const YAML::Exception& error) {
        throw std::runtime_error(file.string() + ":" + std::to_string(error.mark.line + 1) + ":" +
                                 std::to_string(error.mark.column + 1) + ": " + error.msg);
    }
    const YAML::Node cases = root["cases"];
    if (!cases || !cases.IsSequence()) fail(file, root, "needs a `cases:` list");
    std::vector<PublishedCase> result;
    for (const YAML::Node& entry : cases) result.push_back(read_case(file, entry));
    return result;
}

std::string published_outcome_text(double published) { return published > 0.0 ? "out of memory" : "ran"; }

std::string memory_share_text(double peak_over_capacity) {
    return (peak_over_capacity > 1.0 ? "out of memory, " : "fits, ") + units::format_fixed(peak_over_capacity * 100.0, 0) +
           "% of memory";
}

bool outcome_agrees(double published, double peak_over_capacity) {
    return (peak_over_capacity > 1.0) == (published > 0.0);
}

std::string metric_unit_text(Metric metric, double value) {
    if (const auto dimension = metric_dimension(metric)) return units::format_readable(value, *dimension, 4);
    if (metric == Metric::strategy_speedup) return units::format_fixed(value, 2) + "×";
    return units::format_fixed(value * 100.0, 1) + "%";
}

}  // namespace parasight::validation
