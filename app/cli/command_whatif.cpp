#include "commands.h"

#include "cli_arguments.h"
#include "common/did_you_mean.h"
#include "common/message_text.h"
#include "export/json_writer.h"
#include "export/report_json.h"
#include "scenario_file/scenario_loader.h"
#include "simulation_failure.h"
#include "sweep/delay_sweep.h"
#include "units/quantity.h"

#include <ostream>

namespace parasight::cli {

const std::string_view whatif_help =
    R"(usage: parasight-cli whatif FILE --delay RANGE [--group G] [--operation OP] [--layers A..B] [--all-devices]
                              [--json]

NeuronaBox's what-if question (Liu et al. 2024, Fig. 4): how much longer is an iteration of scenario FILE when
chosen communications each take a fixed delay longer? Simulates FILE once per delay, and once without, and prints
the iteration time against the delay; the slope below the knee (the delayed calls nothing hides); the "hidden"
delay, the knee, up to which the overlap with computation absorbs the rest within 1%; and the slope past it, the
delayed calls on the critical path. docs/what-if.md explains it; FILE's own what_if rules stay in force.

  --delay RANGE    the delays: a list (1ms,2ms,5ms) or a range (0..10ms +0.5ms, 1..1024us x2), at most 1 h each
                   and 1000 values
  --group G        delay the communications of one group: tp, cp, ep, pp or dp (default: every group)
  --operation OP   delay one operation: all-reduce, reduce-scatter, all-gather, all-to-all or send (a pipeline
                   send) (default: every operation)
  --layers A..B    delay only communications inside layers A to B (one layer: A); gradient buckets and
                   pipeline sends belong to no layer
  --all-devices    simulate every device instead of one per pipeline stage
  --json           one JSON object: group, operation, layers {first, last}, delayed_calls, baseline_s,
                   hidden_delay_s, hidden_beyond_range, hides_nothing, initial_slope, slope,
                   points [{delay_s, iteration_time_s, exposed_comm_s {tp, cp, ep, pp, dp}}]

exit status: 0 ok, 2 bad input (a bad range or name, a delay that matches no communication)
)";

namespace {

template <class Enum, std::size_t N>
Expected<Enum> parse_name(std::string_view option, const std::string& text,
                          const std::array<EnumName<Enum>, N>& names) {
    if (const auto value = value_of(text, names)) return *value;
    const auto words = names_of(names);
    return Error{"--" + std::string(option) + ": unknown " + std::string(option) + " " + in_quotes(text) +
                 did_you_mean_suffix(text, words) + "; expected " + join_alternatives(words)};
}

void print_table(std::ostream& out, const CollectiveDelay& rule, const DelaySweep& sweep) {
    using units::Dimension;
    using units::format_readable;
    out << "delay added to " << delay_rule_words(rule) << ": "
        << count_phrase(sweep.delayed_calls, "delayed call") << " per iteration on the busiest simulated device\n\n";
    out << padded("delay", 11) << ' ' << padded("iteration", 11) << ' ' << padded("vs none", 9) << ' '
        << "exposed communication\n";
    const double baseline_s = sweep.points.front().iteration_time_s;
    for (const DelaySweepPoint& point : sweep.points) {
        double exposed_s = 0.0;
        for (const double value : point.exposed_comm_s) exposed_s += value;
        const double change = point.iteration_time_s / baseline_s - 1.0;
        // No delay reads as 0 s, not as the smallest unit's 0 ns.
        const std::string delay = point.delay_s == 0.0 ? "0 s" : format_readable(point.delay_s, Dimension::time);
        out << padded(delay, 11) << ' '
            << padded(format_readable(point.iteration_time_s, Dimension::time), 11) << ' '
            << padded((change >= 0.0 ? "+" : "") + units::format_fixed(100.0 * change, 1) + "%", 9) << ' '
            << format_readable(exposed_s, Dimension::time) << '\n';
    }
    out << "\nbelow the knee: " << units::format_fixed(sweep.initial_slope, 2)
        << " s of iteration per s of delay (the delayed calls nothing hides)\n";
    // The tolerance in time too: 1% of a 20 s iteration is 200 ms, which hides much more than 1% of a 50 ms one.
    const std::string tolerance = "within 1% of the iteration, " +
                                  format_readable(hidden_delay_tolerance * baseline_s, Dimension::time);
    // Every call adding its whole delay over the whole range: no knee, and "every swept delay hides" would mislead.
    if (delay_hides_nothing(sweep) && sweep.hidden_beyond_range) {
        out << "hidden delay: none (each of the " << sweep.delayed_calls
            << " delayed calls adds its whole delay from the smallest on: the overlap hides none of it)\n";
    } else {
        out << "hidden delay: " << (sweep.hidden_beyond_range ? "at least " : "")
            << format_readable(sweep.hidden_delay_s, Dimension::time)
            << (sweep.hidden_beyond_range ? " (every swept delay hides, " + tolerance + "; the knee lies further out)"
                                          : " (the largest swept delay the overlap absorbs, " + tolerance + ")")
            << '\n';
    }
    out << "past the knee: " << units::format_fixed(sweep.slope, 2)
        << " s of iteration per s of delay between the last two delays (the delayed calls on the critical path)\n";
}

void print_json(std::ostream& out, const CollectiveDelay& rule, const DelaySweep& sweep) {
    JsonWriter json;
    json.begin_object();
    json.key("group");
    rule.group ? json.value(to_string(*rule.group)) : json.null();
    json.key("operation");
    rule.operation ? json.value(name_of(*rule.operation, comm_operation_names)) : json.null();
    json.key("layers");
    if (rule.layers) {
        json.begin_object().key("first").value(rule.layers->first).key("last").value(rule.layers->last).end_object();
    } else {
        json.null();
    }
    json.key("delayed_calls").value(sweep.delayed_calls);
    json.key("baseline_s").value(sweep.points.front().iteration_time_s);
    json.key("hidden_delay_s").value(sweep.hidden_delay_s);
    json.key("hidden_beyond_range").value(sweep.hidden_beyond_range);
    json.key("hides_nothing").value(delay_hides_nothing(sweep));
    json.key("initial_slope").value(sweep.initial_slope);
    json.key("slope").value(sweep.slope);
    json.key("points").begin_array();
    for (const DelaySweepPoint& point : sweep.points) {
        json.begin_object();
        json.key("delay_s").value(point.delay_s);
        json.key("iteration_time_s").value(point.iteration_time_s);
        json.key("exposed_comm_s");
        write_comm_groups(json, point.exposed_comm_s);
        json.end_object();
    }
    json.end_array();
    json.end_object();
    json.drain(out);
    out << '\n';
}

}  // namespace

int run_whatif(const std::vector<std::string>& words, std::ostream& out, std::ostream& err) {
    const auto arguments = Arguments::parse(
        words, OptionSpec{{"delay", "group", "operation", "layers"}, {"json", "all-devices"}, {}});
    if (!arguments) return usage_error(err, "whatif", arguments.error());
    if (arguments->positional().size() != 1) return usage_error(err, "whatif", "name exactly one scenario FILE");
    const auto delay_text = arguments->option("delay");
    if (!delay_text) return usage_error(err, "whatif", "--delay is required, e.g. --delay '0..10ms +0.5ms'");
    const auto delays_s = parse_delays(*delay_text);
    if (!delays_s) return usage_error(err, "whatif", "--delay: " + delays_s.error());
    CollectiveDelay rule;
    if (const auto text = arguments->option("group")) {
        const auto group = parse_name("group", *text, parallel_axis_names);
        if (!group) return usage_error(err, "whatif", group.error());
        rule.group = *group;
    }
    if (const auto text = arguments->option("operation")) {
        const auto operation = parse_name("operation", *text, comm_operation_names);
        if (!operation) return usage_error(err, "whatif", operation.error());
        rule.operation = *operation;
    }
    if (const auto text = arguments->option("layers")) {
        const auto layers = parse_layer_range(*text);
        if (!layers) return usage_error(err, "whatif", "--layers: " + layers.error());
        rule.layers = *layers;
    }
    SimulateOptions options;
    options.all_devices = arguments->flag("all-devices");

    const std::string& file = arguments->positional().front();
    const LoadResult loaded = load_scenario_file(file);
    if (!loaded.ok()) {
        for (const Diagnostic& diagnostic : loaded.diagnostics) err << diagnostic.to_string() << '\n';
        return exit_bad_input;
    }
    const auto sweep = sweep_delay(*loaded.scenario, rule, *delays_s, options);
    if (!sweep) return report_simulation_failure(err, "whatif", file, sweep.error(), options.all_devices);
    if (arguments->flag("json")) {
        print_json(out, rule, *sweep);
    } else {
        print_table(out, rule, *sweep);
    }
    return exit_ok;
}

}  // namespace parasight::cli
