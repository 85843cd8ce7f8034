#include "commands.h"

#include "cli_arguments.h"
#include "common/message_text.h"
#include "export/breakdown_csv.h"
#include "export/chrome_trace.h"
#include "export/offload_words.h"
#include "export/report_json.h"
#include "export/warning_text.h"
#include "io/atomic_output.h"
#include "path_checks.h"
#include "scenario_file/scenario_loader.h"
#include "common/number_text.h"
#include "scenario_file/scenario_writer.h"
#include "simulation_failure.h"
#include "simulation/simulate.h"
#include "store/result_store.h"
#include "stored_results.h"
#include "units/quantity.h"

#include <fstream>
#include <ostream>

namespace parasight::cli {

const std::string_view simulate_help = R"(usage: parasight-cli simulate FILE [--json] [--trace OUT.json] [--csv OUT.csv] [--all-devices] [--max-tasks N]
                                [--db DB]

Simulates one training iteration of scenario FILE on every device and reports the iteration time, throughput,
MFU/HFU, where the time goes (compute, the computations' wait on the device's own memory, exposed communication per
group, transfers to and from memory beyond the device, pipeline bubble, idle) and the memory each device needs.

  --json          one JSON object: iteration_time_s, samples_per_s, tokens_per_s, devices,
                  model_flops_per_iteration, model_tflops_per_device, mfu, hfu,
                  breakdown_s {compute, exposed_local_memory, exposed_comm {tp, cp, ep, pp, dp},
                               exposed_remote_memory, bubble, idle},
                  memory {peak_bytes, capacity_bytes, oom, by_category_bytes {...}},
                  simulation {events, wall_s, mode, steady_state {used, period_s, ... | reason}},
                  warnings []
  --trace FILE    write a Chrome trace (open it in Perfetto or chrome://tracing)
  --csv FILE      write each simulated device's breakdown as CSV
  --all-devices   simulate every device instead of one per symmetry class (same answer on a homogeneous cluster)
  --max-tasks N   refuse execution graphs of more than N tasks (default 50000000, about 10 GB of memory)
  --db DB         also store the run in results database DB (docs/store.md; made when missing); 'parasight-cli runs'
                  reads it back

Output files are checked before the simulation starts and removed again if it fails (or the command is stopped by
a signal); an output that is the scenario, its measured operations table, the database (or one of SQLite's
companion files beside it, -wal, -shm, -journal) or another output, after links, is refused. A scenario whose
execution graph would pass --max-tasks is refused with what to change.

exit status: 0 ok; 3 simulated, but a device needs more memory than it has (everything is still printed and
written, with memory.oom true and a warning); 2 bad input or a scenario that cannot be simulated; 1 internal error
or an output file that could not be written
)";

namespace {

void print_summary(std::ostream& out, const Report& report) {
    using units::Dimension;
    using units::format_fixed;
    using units::format_readable;
    const TimeBreakdown& b = report.breakdown;
    auto share = [&](double value) {
        return format_readable(value, Dimension::time) + " (" +
               format_fixed(100.0 * value / report.iteration_time_s, 1) + "%)";
    };
    out << "iteration time    " << format_readable(report.iteration_time_s, Dimension::time) << '\n';
    out << "throughput        " << format_fixed(report.samples_per_s, 2) << " samples/s";
    if (report.tokens_per_s > 0.0) out << ", " << format_fixed(report.tokens_per_s, 0) << " tokens/s";
    out << '\n';
    out << "model FLOP rate   " << format_fixed(report.model_tflops_per_device, 1) << " TFLOP/s per device, MFU "
        << format_fixed(100.0 * report.mfu, 1) << "%, HFU " << format_fixed(100.0 * report.hfu, 1) << "%\n";
    out << "per device (mean over " << count_phrase(report.devices, "device") << "):\n";
    // A part's name in a column as wide as the longest, "exposed remote memory".
    auto part = [&](std::string name, double value) {
        name.resize(22, ' ');
        out << "  " << name << share(value) << '\n';
    };
    part("compute", b.compute_s);
    if (b.exposed_local_memory_s > 0.0) part("exposed local memory", b.exposed_local_memory_s);
    for (std::size_t g = 0; g < comm_group_count; ++g) {
        if (b.exposed_comm_s[g] <= 0.0) continue;
        part("exposed " + std::string(comm_group_names[g].name), b.exposed_comm_s[g]);
    }
    if (b.exposed_remote_memory_s > 0.0) part("exposed remote memory", b.exposed_remote_memory_s);
    if (b.bubble_s > 0.0) part("pipeline bubble", b.bubble_s);
    if (b.idle_s > 0.0) part("idle", b.idle_s);
    out << "memory            " << format_readable(report.peak_memory_bytes, Dimension::size, 4, true) << " of "
        << format_readable(report.memory_capacity_bytes, Dimension::size, 4, true)
        << (report.out_of_memory ? " — OUT OF MEMORY" : "") << '\n';
    for (std::size_t c = 0; c < memory_category_count; ++c) {
        // The runtime's memory is counted only where the device gives it (cluster.device.context_memory).
        if (static_cast<MemoryCategory>(c) == MemoryCategory::runtime && report.memory_by_category_bytes[c] <= 0.0) {
            continue;
        }
        std::string name(memory_category_names[c].name);
        name.resize(16, ' ');
        out << "  " << name << format_readable(report.memory_by_category_bytes[c], Dimension::size, 4, true) << '\n';
    }
    for (const OffloadUse& use : report.offloads) {
        out << "  offloaded       " << format_readable(use.bytes, Dimension::size, 4, true) << " of "
            << offloaded_states_words(use)
            << " in " << offload_target_words(use.target)
            << (use.target == OffloadTarget::pool ? " (every device's)"
                                                  : " (the node of NPU " + std::to_string(use.first_npu) + ")")
            << ", of " << format_readable(use.capacity_bytes, Dimension::size, 4, true) << '\n';
    }
    for (const Warning& warning : report.warnings) out << "warning: " << warning_text(warning) << '\n';
    out << "simulated " << count_phrase(report.events, "event") << " in "
        << format_readable(report.wall_s, Dimension::time) << " (" << report.mode << ")\n";
    const SteadyStateUse& steady = report.steady_state;
    if (steady.used) {
        out << "steady state      " << steady.repeated_micro_batches << " of "
            << steady.simulated_micro_batches + steady.repeated_micro_batches
            << " micro-batches by repeating a period of " << format_readable(steady.period_s, Dimension::time) << " ("
            << count_phrase(steady.period_micro_batches, "micro-batch", "micro-batches") << ")\n";
    } else {
        out << "steady state      not used: " << steady.reason << '\n';
    }
}

}  // namespace

int run_simulate(const std::vector<std::string>& words, std::ostream& out, std::ostream& err) {
    const auto arguments =
        Arguments::parse(words, OptionSpec{{"trace", "csv", "db", "max-tasks"}, {"json", "all-devices"}, {}});
    if (!arguments) return usage_error(err, "simulate", arguments.error());
    if (arguments->positional().size() != 1) return usage_error(err, "simulate", "name exactly one scenario FILE");

    SimulateOptions options;
    // Up to 2^31 − 1: task ids are 32-bit.
    const Expected<std::int64_t> max_tasks =
        arguments->whole_number("max-tasks", static_cast<std::int64_t>(options.max_tasks), 1, 2'147'483'647);
    if (!max_tasks) return usage_error(err, "simulate", max_tasks.error());
    options.max_tasks = max_tasks.value();

    // Output files are checked and opened (as temporary files beside them) before the simulation, so that a path
    // that cannot be written is reported at once; they replace their targets only once everything has succeeded.
    // None may be the scenario, its measured operations table, the database (or its companion files) or another.
    const std::string& scenario_file = arguments->positional().front();
    const auto trace_path = arguments->option("trace");
    const auto csv_path = arguments->option("csv");
    const auto db_path = arguments->option("db");
    std::vector<CommandFile> outputs;
    if (trace_path) outputs.push_back({"--trace", *trace_path, false});
    if (csv_path) outputs.push_back({"--csv", *csv_path, false});
    if (db_path) outputs.push_back({"--db", *db_path, true});
    if (const auto refused = refuse_path_clash(err, "simulate", outputs, scenario_inputs(scenario_file))) {
        return *refused;
    }
    std::unique_ptr<AtomicOutput> trace;
    std::unique_ptr<AtomicOutput> csv;
    const auto open_output = [&](const char* option, const std::optional<std::string>& path,
                                 std::unique_ptr<AtomicOutput>& output) -> std::optional<std::string> {
        if (!path) return std::nullopt;
        auto opened = AtomicOutput::open(*path);
        if (!opened) return std::string(option) + ": cannot write " + quoted_path(*path) + ": " + opened.error();
        output = std::move(opened).value();
        return std::nullopt;
    };
    for (const auto& problem : {open_output("--trace", trace_path, trace), open_output("--csv", csv_path, csv)}) {
        if (problem) return usage_error(err, "simulate", *problem);
    }

    const LoadResult loaded = load_scenario_file(scenario_file);
    if (!loaded.ok()) {
        for (const Diagnostic& diagnostic : loaded.diagnostics) err << diagnostic.to_string() << '\n';
        return exit_bad_input;
    }
    if (const auto refused =
            refuse_path_clash(err, "simulate", outputs, scenario_inputs(scenario_file, &loaded.scenario->value()))) {
        return *refused;
    }
    // The database is opened (and refused, when it is not one of ours) before the simulation too, once nothing
    // can clash with it.
    std::optional<ResultStore> store;
    if (db_path) {
        Expected<ResultStore> opened = ResultStore::open(*db_path, ResultStore::Access::read_write);
        if (!opened) return database_error(err, "simulate", *db_path, opened.error());
        store.emplace(std::move(opened).value());
    }
    options.all_devices = arguments->flag("all-devices");
    options.record_memory_timeline = trace_path.has_value();
    // The events are kept only for the trace; the CSV and the summary read the Report.
    options.timeline = trace_path ? TimelineDetail::events : TimelineDetail::none;
    const auto simulation = simulate(*loaded.scenario, options);
    if (!simulation) {
        return report_simulation_failure(err, "simulate", scenario_file, simulation.error(), options.all_devices);
    }
    if (trace) write_chrome_trace(trace->stream(), *simulation->timeline);
    if (csv) write_breakdown_csv(csv->stream(), simulation->report);
    for (AtomicOutput* file : {trace.get(), csv.get()}) {
        if (file == nullptr) continue;
        if (const auto error = file->commit()) {
            err << "parasight-cli simulate: writing '" << file->target().string() << "' failed: " << *error << '\n';
            return exit_internal_error;
        }
    }
    std::optional<std::int64_t> run_id;
    if (store) {
        const Scenario& scenario = loaded.scenario->value();
        Expected<std::int64_t> stored =
            store->add_run(scenario.name, write_scenario_yaml(scenario), simulation->report);
        if (!stored) return database_error(err, "simulate", store->path(), stored.error());
        run_id = stored.value();
    }
    if (arguments->flag("json")) {
        out << report_json(simulation->report);
    } else {
        print_summary(out, simulation->report);
        if (run_id) out << "stored as run:" << *run_id << " in " << quoted_path(store->path().string()) << '\n';
    }
    // Everything is written; the exit status still tells a script that the configuration does not fit.
    return simulation->report.out_of_memory ? exit_out_of_memory : exit_ok;
}

}  // namespace parasight::cli
