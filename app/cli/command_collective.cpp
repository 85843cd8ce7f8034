#include "commands.h"

#include "cli_arguments.h"
#include "analysis/collective_probe.h"
#include "common/did_you_mean.h"
#include "common/message_text.h"
#include "export/json_writer.h"
#include "scenario/scenario_limits.h"
#include "scenario_file/scenario_loader.h"
#include "common/number_text.h"
#include "units/quantity.h"

#include <algorithm>
#include <ostream>

namespace parasight::cli {

const std::string_view collective_help = R"(usage: parasight-cli collective FILE --op OP --size SIZE [--group GROUP] [--chunks N] [--json]

The time of one collective on the cluster topology of scenario FILE, with the per-dimension traffic and the
algorithm and bus bandwidths as NCCL tests report them.

  --op OP        all-reduce | reduce-scatter | all-gather | all-to-all | broadcast
  --size SIZE    the buffer, with a unit: 1GiB, 256 MB (all-gather: the gathered output; reduce-scatter: the input)
  --group GROUP  which NPUs take part (default: all):
                   all                every NPU, over every dimension
                   tp|cp|ep|dp|pp     NPU 0's group on that axis of the scenario's parallel layout
                   0,2                whole topology dimensions, by index (innermost is 0)
  --chunks N     pieces the buffer is cut into to pipeline across dimensions (default: simulation.collective_chunks)
  --json         one JSON object: op, size_bytes, ranks, time_s, algbw_Bps, busbw_Bps,
                 per_dim [{dim, kind, size, algorithm, protocol, bytes_sent, time_s}]

exit status: 0 ok, 2 bad input
)";

namespace {

void print_json(std::ostream& out, const CollectiveProbe& cost) {
    JsonWriter json;
    json.begin_object();
    json.key("op").value(cost.op);
    json.key("size_bytes").value(cost.size_bytes);
    json.key("ranks").value(cost.ranks);
    json.key("time_s").value(cost.time_s);
    json.key("algbw_Bps").value(cost.algbw_Bps);
    json.key("busbw_Bps").value(cost.busbw_Bps);
    json.key("per_dim").begin_array();
    for (const CollectiveProbeDimension& dimension : cost.per_dim) {
        json.begin_object();
        json.key("dim").value(static_cast<std::int64_t>(dimension.dimension));
        json.key("kind").value(dimension.kind);
        json.key("size").value(dimension.members);
        json.key("algorithm").value(dimension.algorithm);
        json.key("protocol").value(dimension.protocol);
        json.key("bytes_sent").value(dimension.bytes_sent);
        json.key("time_s").value(dimension.time_s);
        json.end_object();
    }
    json.end_array();
    json.end_object();
    out << json.text();
}

void print_table(std::ostream& out, const CollectiveProbe& cost) {
    using units::Dimension;
    using units::format_readable;
    out << cost.op << " of " << format_readable(cost.size_bytes, Dimension::size, 4, true) << " over "
        << count_phrase(cost.ranks, "NPU") << ": ";
    if (cost.ranks <= 1) {
        // Bandwidths of a transfer that never happens would be 0/0; say what the group is instead.
        out << "nothing to exchange, a group of one NPU sends no bytes and takes no time\n";
        return;
    }
    out << format_readable(cost.time_s, Dimension::time) << '\n';
    out << "  algbw " << format_readable(cost.algbw_Bps, Dimension::bandwidth) << ", busbw "
        << format_readable(cost.busbw_Bps, Dimension::bandwidth) << '\n';
    out << "  dim  kind              size  algorithm           protocol  bytes sent    time alone\n";
    for (const CollectiveProbeDimension& dimension : cost.per_dim) {
        auto column = [](const std::string& text, std::size_t width) { return padded(text, width) + ' '; };
        out << "  " << column(std::to_string(dimension.dimension), 4) << column(dimension.kind, 17)
            << column(std::to_string(dimension.members), 5)
            << column(dimension.algorithm, 19)
            << column(dimension.protocol, 9)
            << column(format_readable(dimension.bytes_sent, Dimension::size, 4, true), 13)
            << format_readable(dimension.time_s, Dimension::time) << '\n';
    }
}

}  // namespace

int run_collective(const std::vector<std::string>& words, std::ostream& out, std::ostream& err) {
    const auto arguments = Arguments::parse(words, OptionSpec{{"op", "size", "group", "chunks"}, {"json"}, {}});
    if (!arguments) return usage_error(err, "collective", arguments.error());
    if (arguments->positional().size() != 1) return usage_error(err, "collective", "name exactly one scenario FILE");

    const auto op = arguments->option("op");
    if (!op) return usage_error(err, "collective", "--op is required");
    const auto ops = collective_probe_ops();
    if (std::find(ops.begin(), ops.end(), *op) == ops.end()) {
        return usage_error(err, "collective", "--op: unknown operation " + in_quotes(*op) +
                                                  did_you_mean_suffix(*op, ops) + "; expected " + join_alternatives(ops));
    }
    const auto size_text = arguments->option("size");
    if (!size_text) return usage_error(err, "collective", "--size is required, e.g. --size 1GiB");
    const auto size = units::parse_quantity(*size_text, units::Dimension::size);
    if (!size) return usage_error(err, "collective", "--size: " + size.error());
    // The buffer is one device's: the scenario's memory limit bounds it.
    if (const auto problem =
            quantity_range_problem("--size", *size, *size_text, units::Dimension::size, limits::collective_buffer)) {
        return usage_error(err, "collective", *problem);
    }

    const LoadResult loaded = load_scenario_file(arguments->positional().front());
    if (!loaded.ok()) {
        for (const Diagnostic& diagnostic : loaded.diagnostics) err << diagnostic.to_string() << '\n';
        return exit_bad_input;
    }
    const Scenario& scenario = loaded.scenario->value();

    int chunks = scenario.simulation.collective_chunks;
    if (const auto chunks_text = arguments->option("chunks")) {
        const auto parsed = parse_integer(*chunks_text);
        if (!parsed) return usage_error(err, "collective", "--chunks must be a whole number, not " + in_quotes(*chunks_text));
        if (const auto problem = integer_range_problem("--chunks", *parsed, limits::collective_chunks)) {
            return usage_error(err, "collective", *problem);
        }
        chunks = static_cast<int>(*parsed);
    }
    const auto cost = probe_collective(scenario, *op, *size, arguments->option("group").value_or("all"), chunks);
    if (!cost) return usage_error(err, "collective", "--group: " + cost.error());
    if (arguments->flag("json")) {
        print_json(out, *cost);
    } else {
        print_table(out, *cost);
    }
    return exit_ok;
}

}  // namespace parasight::cli
