#include "commands.h"

#include "cli_arguments.h"
#include "common/did_you_mean.h"
#include "common/message_text.h"
#include "export/json_writer.h"
#include "memory_system/pool_transfer.h"
#include "memory_system/tier_transfer.h"
#include "scenario/scenario_limits.h"
#include "scenario_file/scenario_loader.h"
#include "units/quantity.h"

#include <ostream>

namespace parasight::cli {

const std::string_view memory_transfer_help = R"(usage: parasight-cli memory-transfer FILE --tier TIER --size SIZE [--json]

The time for every GPU of scenario FILE's cluster to load (or store) SIZE at once from a tier of the cluster's
memory_system, with what the transfer puts on each link (docs/model.md, "Memory systems").

  --tier TIER    host | nvme | pool
                   host   the node's CPU memory, over each GPU's own host link
                   nvme   the node's NVMe drives, their bandwidth shared by the node's GPUs
                   pool   the disaggregated pool (ASTRA-sim 2.0's remote memory model): remote group → out-node
                          switch → node → GPU in pipelined chunks; with in_switch_collectives the switches gather
                          every GPU's SIZE into what each GPU receives
  --size SIZE    what one GPU moves, with a unit: 1GiB, 256 MB
  --json         one JSON object: tier, size_bytes, gpus, gpus_per_node, time_s, received_bytes_per_gpu and, for
                 the pool, chunks, in_switch_collectives and links [{stage, bytes, bandwidth_Bps, chunk_time_s}]

exit status: 0 ok, 2 bad input (or FILE's cluster has no such tier)
)";

namespace {

// The tiers a transfer can reach: every offload target but the device itself.
const std::array<EnumName<OffloadTarget>, 3> tier_names{
    {{OffloadTarget::host, "host"}, {OffloadTarget::nvme, "nvme"}, {OffloadTarget::pool, "pool"}}};

struct Result {
    OffloadTarget tier = OffloadTarget::host;
    double size_bytes = 0.0;
    std::int64_t gpus = 0;
    int gpus_per_node = 0;
    double time_s = 0.0;
    std::optional<PoolTransfer> pool;
};

void print_json(std::ostream& out, const Result& result) {
    JsonWriter json;
    json.begin_object();
    json.key("tier").value(name_of(result.tier, tier_names));
    json.key("size_bytes").value(result.size_bytes);
    json.key("gpus").value(result.gpus);
    json.key("gpus_per_node").value(static_cast<std::int64_t>(result.gpus_per_node));
    json.key("time_s").value(result.time_s);
    json.key("received_bytes_per_gpu").value(result.pool ? result.pool->received_bytes_per_gpu : result.size_bytes);
    if (result.pool) {
        json.key("chunks").value(result.pool->chunks);
        json.key("links").begin_array();
        for (const PoolLinkLoad& link : result.pool->links) {
            json.begin_object();
            json.key("stage").value(pool_stage_name(link.stage));
            json.key("bytes").value(link.bytes);
            json.key("bandwidth_Bps").value(link.bandwidth_Bps);
            json.key("chunk_time_s").value(link.chunk_time_s);
            json.end_object();
        }
        json.end_array();
    }
    json.end_object();
    out << json.text();
}

void print_table(std::ostream& out, const Result& result) {
    using units::Dimension;
    using units::format_readable;
    // Sizes in the units the size was given in: 64 MB stays decimal, 1 GiB binary.
    const std::string size_text = units::format_quantity(result.size_bytes, Dimension::size);
    const bool binary = size_text.find('i') != std::string::npos;
    out << size_text << " per GPU from " << offload_target_words(result.tier) << ", " << count_phrase(result.gpus, "GPU") << " at once (" << result.gpus_per_node
        << " a node): " << format_readable(result.time_s, Dimension::time) << '\n';
    if (!result.pool) return;
    const PoolTransfer& pool = *result.pool;
    out << "  " << units::format_number(pool.chunks) << " pipelined chunks; each GPU receives "
        << format_readable(pool.received_bytes_per_gpu, Dimension::size, 4, binary) << '\n';
    out << "  stage                            bytes on a link  link bandwidth  time per chunk\n";
    for (const PoolLinkLoad& link : pool.links) {
        out << "  " << padded(std::string(pool_stage_name(link.stage)), 32) << ' '
            << padded(format_readable(link.bytes, Dimension::size, 4, binary), 16) << ' '
            << padded(format_readable(link.bandwidth_Bps, Dimension::bandwidth), 15) << ' '
            << format_readable(link.chunk_time_s, Dimension::time) << '\n';
    }
}

}  // namespace

int run_memory_transfer(const std::vector<std::string>& words, std::ostream& out, std::ostream& err) {
    const std::string_view command = "memory-transfer";
    const auto arguments = Arguments::parse(words, OptionSpec{{"tier", "size"}, {"json"}, {}});
    if (!arguments) return usage_error(err, command, arguments.error());
    if (arguments->positional().size() != 1) return usage_error(err, command, "name exactly one scenario FILE");
    const auto tier_text = arguments->option("tier");
    if (!tier_text) return usage_error(err, command, "--tier is required: host, nvme or pool");
    const auto tier = value_of(*tier_text, tier_names);
    if (!tier) {
        const auto tiers = names_of(tier_names);
        return usage_error(err, command, "--tier: unknown tier " + in_quotes(*tier_text) +
                                             did_you_mean_suffix(*tier_text, tiers) + "; expected " +
                                             join_alternatives(tiers));
    }
    const auto size_text = arguments->option("size");
    if (!size_text) return usage_error(err, command, "--size is required, e.g. --size 1GiB");
    const auto size = units::parse_quantity(*size_text, units::Dimension::size);
    if (!size) return usage_error(err, command, "--size: " + size.error());
    if (const auto problem =
            quantity_range_problem("--size", *size, *size_text, units::Dimension::size, limits::tier_capacity)) {
        return usage_error(err, command, *problem);
    }

    const std::string& file = arguments->positional().front();
    const LoadResult loaded = load_scenario_file(file);
    if (!loaded.ok()) {
        for (const Diagnostic& diagnostic : loaded.diagnostics) err << diagnostic.to_string() << '\n';
        return exit_bad_input;
    }
    const Scenario& scenario = loaded.scenario->value();
    const MemorySystemSpec& memory_system = scenario.cluster.memory_system;
    Result result{*tier, *size, scenario.device_count(), scenario.cluster.gpus_per_node(), 0.0, std::nullopt};
    const auto missing = [&]() {
        return usage_error(err, command, file + ": the cluster has no memory_system." + std::string(*tier_text) +
                                             " (docs/scenario-reference.md, cluster.memory_system)");
    };
    if (!memory_system.describes(*tier)) return missing();
    // The pool's in-switch collectives, where it has them, gather what is loaded (what a ZeRO-3 layer's load is).
    result.time_s = tier_transfer_s(scenario.cluster, result.gpus, *tier, *size, PoolGathering::in_switch);
    if (*tier == OffloadTarget::pool) {
        result.pool = pool_transfer(*memory_system.pool, result.gpus, result.gpus_per_node, *size);
    }
    if (arguments->flag("json")) {
        print_json(out, result);
    } else {
        print_table(out, result);
    }
    return exit_ok;
}

}  // namespace parasight::cli
