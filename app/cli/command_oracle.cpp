#include "commands.h"

#include "cli_arguments.h"
#include "common/did_you_mean.h"
#include "common/message_text.h"
#include "common/number_text.h"
#include "export/json_writer.h"
#include "oracle/strong_scaling.h"
#include "oracle_comparison/oracle_comparison.h"
#include "scenario_file/scenario_loader.h"
#include "units/quantity.h"

#include <algorithm>
#include <ostream>
#include <sstream>

namespace parasight::cli {

const std::string_view oracle_help =
    R"(usage: parasight-cli oracle FILE [--pes LIST] [--strategy LIST] [--compare] [--json]

The ParaDL oracle (Kahira et al. 2021, Table 1) for the CNN of scenario FILE: per PE, the computation and
communication time of an epoch and of an iteration, and the memory, for each parallel strategy at each PE count;
the limit that rules a strategy out; the fastest strategy that fits in memory at each p. Closed forms, no
simulation: the answer is instant. docs/oracle.md says where each number comes from.

  --pes LIST       PE counts, increasing, e.g. 1,2,4,8 (default: powers of two up to 1024, or up to the
                   cluster's NPUs when it has more). Past the cluster's NPUs its outermost dimension is taken
                   as grown to hold them.
  --strategy LIST  strategies, e.g. data,spatial (default: all): serial, data, spatial, layer, filter, channel,
                   data+filter, data+spatial, data+layer
  --compare        also simulate FILE and set the oracle's answer for its own strategy (data over dp, layer
                   over pp, data+layer over both) beside the simulated one, per iteration, with each reason
                   they differ
  --json           one JSON object: model, samples, batch, iterations_per_epoch, micro_batches,
                   element_bytes, memory_capacity_bytes, points [{p, alpha_s, beta_s_per_byte,
                   beyond_cluster, best, strategies [{strategy, p1, p2, pw, ph, epoch_s, iteration_s,
                   compute_s, communication_s, memory_bytes, fits_memory, limit, ruled_out}]}];
                   with --compare also comparison {strategy, p, p1, p2, oracle {compute_s,
                   communication_s, iteration_s}, simulated {compute_s, communication_s,
                   exposed_communication_s, bubble_s, idle_s, iteration_s}, reasons []}

exit status: 0 ok, 2 bad input (not a CNN, a bad list)
)";

namespace {

constexpr std::int64_t max_pes = 10'000'000;  // the largest topology a scenario may describe
constexpr std::size_t max_pe_counts = 64;

std::vector<std::string> comma_items(const std::string& text) {
    std::vector<std::string> items;
    std::stringstream list(text);
    std::string item;
    while (std::getline(list, item, ',')) items.push_back(item);
    if (!text.empty() && text.back() == ',') items.emplace_back();
    return items;
}

Expected<std::vector<std::int64_t>> parse_pes(const std::string& text) {
    std::vector<std::int64_t> pes;
    for (const std::string& item : comma_items(text)) {
        const auto value = parse_integer(item);
        if (!value || *value < 1 || *value > max_pes) {
            return Error{"--pes: " + in_quotes(item) + " is not a PE count from 1 to " + std::to_string(max_pes)};
        }
        if (!pes.empty() && *value <= pes.back()) {
            return Error{"--pes: list PE counts in increasing order, each once (" + std::to_string(*value) +
                         " after " + std::to_string(pes.back()) + ")"};
        }
        pes.push_back(*value);
    }
    if (pes.empty()) return Error{"--pes needs PE counts, e.g. 1,2,4,8"};
    if (pes.size() > max_pe_counts) {
        return Error{"--pes: at most " + std::to_string(max_pe_counts) + " PE counts, not " +
                     std::to_string(pes.size())};
    }
    return pes;
}

Expected<std::vector<OracleStrategy>> parse_strategies(const std::string& text) {
    std::vector<OracleStrategy> strategies;
    const auto names = names_of(oracle_strategy_names);
    for (const std::string& item : comma_items(text)) {
        const auto strategy = value_of(item, oracle_strategy_names);
        if (!strategy) {
            return Error{"--strategy: unknown strategy " + in_quotes(item) + did_you_mean_suffix(item, names) +
                         "; expected " + join_alternatives(names)};
        }
        if (std::find(strategies.begin(), strategies.end(), *strategy) != strategies.end()) {
            return Error{"--strategy: " + in_quotes(item) + " is listed twice"};
        }
        strategies.push_back(*strategy);
    }
    if (strategies.empty()) return Error{"--strategy needs strategies, e.g. data,spatial"};
    return strategies;
}

// A table cell: `text` padded to `width` characters and the space between columns.
std::string column(const std::string& text, std::size_t width) { return padded(text, width) + ' '; }

void print_network(std::ostream& out, const OracleScalingPoint& point, const std::vector<Dimension>& topology) {
    using units::Dimension;
    using units::format_readable;
    if (point.network.dimensions == 0) {
        out << "  (one PE: no links)\n";
        return;
    }
    out << "  (α " << format_readable(point.network.alpha_s, Dimension::time) << ", β 1 / "
        << format_readable(1.0 / point.network.beta_s_per_byte, Dimension::bandwidth) << ": "
        << count_phrase(static_cast<std::int64_t>(point.network.dimensions), "dimension") << " spanned";
    if (point.network.beyond_cluster) {
        out << "; beyond the cluster: its outermost dimension (" << to_string(topology.back().kind)
            << ") taken as grown to hold them";
    }
    out << ")\n";
}

void print_table(std::ostream& out, const Scenario& scenario, const OracleProblem& problem,
                 const std::vector<OracleScalingPoint>& points) {
    using units::Dimension;
    using units::format_readable;
    out << scenario.model.name << ", " << count_phrase(static_cast<std::int64_t>(problem.layers.size()), "layer")
        << ": ";
    if (scenario.training.dataset_samples) {
        out << units::format_number(problem.samples)
            << " samples per epoch, B = " << units::format_number(problem.batch)
            << " (" << units::format_fixed(problem.iterations(), 1) << " iterations per epoch)";
    } else {
        out << "B = " << units::format_number(problem.batch)
            << " (no training.dataset_samples: an epoch is one iteration)";
    }
    out << ", S = " << units::format_number(problem.micro_batches) << " micro-batches, δ = "
        << units::format_number(problem.element_bytes) << " B\n";
    out << "memory per PE: " << format_readable(problem.memory_capacity_bytes, Dimension::size, 4, true) << " ("
        << scenario.cluster.device.name << ")\n";
    const std::vector<parasight::Dimension>& topology = scenario.cluster.topology;
    for (const OracleScalingPoint& point : points) {
        out << "\np = " << point.p;
        print_network(out, point, topology);
        out << "  " << column("strategy", 13) << column("PEs", 14) << column("epoch", 10) << column("iteration", 10)
            << column("compute", 10) << column("comm", 10) << "memory/PE\n";
        for (const OracleChoice& choice : point.choices) {
            out << "  " << column(std::string(name_of(choice.strategy, oracle_strategy_names)), 13);
            const OracleEstimate& estimate = choice.estimate;
            if (estimate.ruled_out) {
                out << "ruled out: " << estimate.ruled_out->reason << '\n';
                continue;
            }
            out << column(oracle_arrangement_text(choice), 14)
                << column(format_readable(estimate.epoch_s(), Dimension::time), 10)
                << column(format_readable(estimate.epoch_s() / problem.iterations(), Dimension::time), 10)
                << column(format_readable(estimate.compute_s, Dimension::time), 10)
                << column(format_readable(estimate.communication_s, Dimension::time), 10)
                << format_readable(estimate.memory_bytes, Dimension::size, 4, true);
            if (!problem.fits(estimate.memory_bytes)) out << " (does not fit)";
            out << '\n';
        }
        if (point.best) {
            const OracleChoice& best = point.choices[*point.best];
            out << "  best: " << name_of(best.strategy, oracle_strategy_names) << " ("
                << format_readable(best.estimate.epoch_s(), Dimension::time) << " per epoch)\n";
        } else {
            out << "  best: none — every strategy is ruled out or does not fit in memory\n";
        }
    }
}

void print_comparison(std::ostream& out, const OracleComparison& comparison) {
    using units::Dimension;
    using units::format_readable;
    const auto time = [](double seconds) { return format_readable(seconds, Dimension::time); };
    out << "\nthe scenario's own strategy, " << name_of(comparison.oracle.strategy, oracle_strategy_names) << " on "
        << oracle_arrangement_text(comparison.oracle) << " PEs, one iteration:\n";
    out << "  " << column("", 17) << column("oracle", 12) << "simulated (mean device)\n";
    out << "  " << column("computation", 17) << column(time(comparison.oracle_compute_s), 12)
        << time(comparison.simulated_compute_s) << " busy\n";
    out << "  " << column("communication", 17) << column(time(comparison.oracle_communication_s), 12)
        << time(comparison.simulated_communication_s) << " busy, "
        << time(comparison.simulated_exposed_communication_s) << " exposed\n";
    out << "  " << column("pipeline bubble", 17)
        << column(comparison.oracle.estimate.bubble_s > 0.0
                      ? time(comparison.oracle.estimate.bubble_s / comparison.iterations) + "*"
                      : std::string("-"),
                  12)
        << time(comparison.simulated_bubble_s) << '\n';
    out << "  " << column("iteration", 17) << column(time(comparison.oracle_iteration_s()), 12)
        << time(comparison.simulated_iteration_s) << '\n';
    if (comparison.oracle.estimate.bubble_s > 0.0) out << "  * counted in the oracle's computation\n";
    if (comparison.oracle.estimate.ruled_out) {
        out << "  the oracle rules this strategy out: " << comparison.oracle.estimate.ruled_out->reason << '\n';
    }
    out << "why they differ, largest first:\n";
    for (const std::string& reason : comparison.reasons) out << "  - " << reason << '\n';
}

void write_comparison_json(JsonWriter& json, const OracleComparison& comparison) {
    json.key("comparison").begin_object();
    json.key("strategy").value(name_of(comparison.oracle.strategy, oracle_strategy_names));
    json.key("p").value(comparison.oracle.pes.p);
    json.key("p1").value(comparison.oracle.pes.p1);
    json.key("p2").value(comparison.oracle.pes.p2);
    json.key("oracle").begin_object();
    json.key("compute_s").value(comparison.oracle_compute_s);
    json.key("communication_s").value(comparison.oracle_communication_s);
    json.key("bubble_s").value(comparison.oracle.estimate.bubble_s / comparison.iterations);
    json.key("iteration_s").value(comparison.oracle_iteration_s());
    json.end_object();
    json.key("simulated").begin_object();
    json.key("compute_s").value(comparison.simulated_compute_s);
    json.key("communication_s").value(comparison.simulated_communication_s);
    json.key("exposed_communication_s").value(comparison.simulated_exposed_communication_s);
    json.key("bubble_s").value(comparison.simulated_bubble_s);
    json.key("idle_s").value(comparison.simulated_idle_s);
    json.key("iteration_s").value(comparison.simulated_iteration_s);
    json.end_object();
    json.key("reasons").begin_array();
    for (const std::string& reason : comparison.reasons) json.value(reason);
    json.end_array();
    json.end_object();
}

void print_json(std::ostream& out, const Scenario& scenario, const OracleProblem& problem,
                const std::vector<OracleScalingPoint>& points, const std::optional<OracleComparison>& comparison) {
    JsonWriter json;
    json.begin_object();
    json.key("model").value(scenario.model.name);
    json.key("samples").value(problem.samples);
    json.key("batch").value(problem.batch);
    json.key("iterations_per_epoch").value(problem.iterations());
    json.key("micro_batches").value(problem.micro_batches);
    json.key("element_bytes").value(problem.element_bytes);
    json.key("memory_capacity_bytes").value(problem.memory_capacity_bytes);
    json.key("points").begin_array();
    for (const OracleScalingPoint& point : points) {
        json.begin_object();
        json.key("p").value(point.p);
        json.key("alpha_s").value(point.network.alpha_s);
        json.key("beta_s_per_byte").value(point.network.beta_s_per_byte);
        json.key("beyond_cluster").value(point.network.beyond_cluster);
        json.key("best");
        if (point.best) {
            json.value(name_of(point.choices[*point.best].strategy, oracle_strategy_names));
        } else {
            json.null();
        }
        json.key("strategies").begin_array();
        for (const OracleChoice& choice : point.choices) {
            const OracleEstimate& estimate = choice.estimate;
            json.begin_object();
            json.key("strategy").value(name_of(choice.strategy, oracle_strategy_names));
            json.key("p1").value(choice.pes.p1);
            json.key("p2").value(choice.pes.p2);
            json.key("pw").value(choice.pes.pw);
            json.key("ph").value(choice.pes.ph);
            json.key("epoch_s").value(estimate.epoch_s());
            json.key("iteration_s").value(estimate.epoch_s() / problem.iterations());
            json.key("compute_s").value(estimate.compute_s);
            json.key("communication_s").value(estimate.communication_s);
            json.key("memory_bytes").value(estimate.memory_bytes);
            json.key("fits_memory").value(problem.fits(estimate.memory_bytes));
            json.key("limit");
            if (estimate.ruled_out) {
                json.value(estimate.ruled_out->bound);
            } else {
                json.null();
            }
            json.key("ruled_out");
            if (estimate.ruled_out) {
                json.value(estimate.ruled_out->reason);
            } else {
                json.null();
            }
            json.end_object();
        }
        json.end_array();
        json.end_object();
    }
    json.end_array();
    if (comparison) write_comparison_json(json, *comparison);
    json.end_object();
    out << json.text();
}

}  // namespace

int run_oracle(const std::vector<std::string>& words, std::ostream& out, std::ostream& err) {
    const auto arguments = Arguments::parse(words, OptionSpec{{"pes", "strategy"}, {"json", "compare"}, {}});
    if (!arguments) return usage_error(err, "oracle", arguments.error());
    if (arguments->positional().size() != 1) return usage_error(err, "oracle", "name exactly one scenario FILE");

    std::vector<OracleStrategy> strategies;
    for (const auto& entry : oracle_strategy_names) strategies.push_back(entry.value);
    if (const auto text = arguments->option("strategy")) {
        auto parsed = parse_strategies(*text);
        if (!parsed) return usage_error(err, "oracle", parsed.error());
        strategies = std::move(*parsed);
    }
    std::optional<std::vector<std::int64_t>> pes;
    if (const auto text = arguments->option("pes")) {
        auto parsed = parse_pes(*text);
        if (!parsed) return usage_error(err, "oracle", parsed.error());
        pes = std::move(*parsed);
    }

    const std::string& file = arguments->positional().front();
    const LoadResult loaded = load_scenario_file(file);
    if (!loaded.ok()) {
        for (const Diagnostic& diagnostic : loaded.diagnostics) err << diagnostic.to_string() << '\n';
        return exit_bad_input;
    }
    const ValidatedScenario& validated = *loaded.scenario;
    const auto problem = oracle_problem(validated);
    if (!problem) {
        err << file << ": " << problem.error() << '\n';
        return exit_bad_input;
    }
    const Scenario& scenario = validated.value();
    if (!pes) pes = oracle_default_pes(scenario.device_count());
    const auto points = oracle_strong_scaling(*problem, scenario.cluster.topology, *pes, strategies);
    std::optional<OracleComparison> comparison;
    if (arguments->flag("compare")) {
        SimulateOptions options;
        options.timeline = TimelineDetail::events;
        const auto simulation = simulate(validated, options);
        if (!simulation) {
            err << file << ": cannot simulate it to compare: " << simulation.error().message << '\n';
            return exit_bad_input;
        }
        auto compared = compare_oracle_with_simulation(validated, *simulation);
        if (!compared) {
            err << file << ": " << compared.error() << '\n';
            return exit_bad_input;
        }
        comparison = std::move(*compared);
    }
    if (arguments->flag("json")) {
        print_json(out, scenario, *problem, points, comparison);
    } else {
        print_table(out, scenario, *problem, points);
        if (comparison) print_comparison(out, *comparison);
    }
    return exit_ok;
}

}  // namespace parasight::cli
