#include "commands.h"

#include "cli_arguments.h"
#include "path_checks.h"
#include "common/message_text.h"
#include "common/number_text.h"
#include "export/json_writer.h"
#include "export/run_column_text.h"
#include "io/atomic_output.h"
#include "stored_results.h"
#include "store/run_comparison.h"
#include "store/stored_rows_writer.h"
#include "store/stored_sweep_ranking.h"
#include "units/quantity.h"

#include <ostream>

namespace parasight::cli {

const std::string_view runs_help = R"(usage: parasight-cli runs list [--db DB] [--json]
       parasight-cli runs show sweep:N|run:N [--top K] [--metric M] [--db DB] [--json]
       parasight-cli runs export sweep:N|run:N [--format csv|json] [--out FILE] [--db DB]
       parasight-cli runs compare run:A run:B [--db DB] [--json]

Reads a results database (docs/store.md) without changing it.

  list       the sweeps (points stored of all, by status) and the runs outside any sweep
  show       a sweep: its axes, counts and best points (--top K, default 10; --metric as for sweep); a run: every
             column
  export     a sweep's points (each axis a column, then every metric) or one run, as CSV (default) or a JSON array of
             objects, to standard output or to --out FILE (written whole or not at all)
  compare    which inputs differ between two runs (their scenarios, path by path), then every metric of both with
             its unit, B - A and B / A
  --db DB    the results database (default: $XDG_DATA_HOME/parasight/results.db, or
             ~/.local/share/parasight/results.db)

exit status: 0 ok; 2 bad input (a database that does not exist, an unknown sweep or run, a bad option); 1 a
database that cannot be read or an output that cannot be written
)";

namespace {

struct Target {
    bool is_sweep = false;
    std::int64_t id = 0;
};

Expected<Target> parse_target(std::string_view text) {
    using Prefix = std::pair<std::string_view, bool>;
    for (const auto& [prefix, is_sweep] : {Prefix{"sweep:", true}, Prefix{"run:", false}}) {
        if (text.rfind(prefix, 0) != 0) continue;
        const auto id = parse_integer(text.substr(prefix.size()));
        if (!id || *id < 1) break;
        return Target{is_sweep, *id};
    }
    return Error{"name a sweep or a run as 'runs list' shows them, sweep:N or run:N, not " + in_quotes(text)};
}

int list_stored(ResultStore& store, const std::filesystem::path& database, bool json, std::ostream& out,
                std::ostream& err) {
    const Expected<std::vector<SweepSummary>> sweeps = store.sweeps();
    if (!sweeps) return database_error(err, "runs", database, sweeps.error());
    const Expected<std::vector<RunSummary>> runs = store.single_runs();
    if (!runs) return database_error(err, "runs", database, runs.error());
    if (json) {
        JsonWriter writer;
        writer.begin_object().key("sweeps").begin_array();
        for (const SweepSummary& sweep : sweeps.value()) {
            writer.begin_object();
            writer.key("id").value(sweep.id).key("name").value(sweep.name);
            writer.key("points").value(static_cast<std::int64_t>(sweep.point_count));
            writer.key("stored").value(static_cast<std::int64_t>(sweep.stored()));
            write_status_counts(writer, sweep);
            writer.key("axes").begin_array();
            for (const std::string& path : sweep.axis_paths) writer.value(path);
            writer.end_array();
            writer.key("created_at").value(sweep.created_at).key("core_version").value(sweep.core_version);
            writer.end_object();
        }
        writer.end_array().key("runs").begin_array();
        for (const RunSummary& run : runs.value()) {
            writer.begin_object().key("id").value(run.id).key("name").value(run.scenario_name);
            writer.key("status").value(run.status).key("created_at").value(run.created_at);
            writer.key("iteration_time_s");
            if (run.iteration_time_s) {
                writer.value(*run.iteration_time_s);
            } else {
                writer.null();
            }
            writer.end_object();
        }
        writer.end_array().end_object();
        out << writer.text() << '\n';
        return exit_ok;
    }
    if (sweeps.value().empty() && runs.value().empty()) {
        out << quoted_path(database.string()) << " holds no results yet\n";
        return exit_ok;
    }
    for (const SweepSummary& sweep : sweeps.value()) {
        out << "sweep:" << sweep.id << "  " << sweep.created_at << "  " << in_quotes(sweep.name) << "  "
            << sweep.stored() << "/" << sweep.point_count << " points";
        for (const auto& status : point_status_names) {
            const std::uint64_t count = sweep.stored_by_status[static_cast<std::size_t>(status.value)];
            if (count > 0) out << ", " << count << " " << status.name;
        }
        out << "  over";
        for (const std::string& path : sweep.axis_paths) out << " " << path;
        out << '\n';
    }
    for (const RunSummary& run : runs.value()) {
        out << "run:" << run.id << "  " << run.created_at << "  " << in_quotes(run.scenario_name) << "  "
            << run.status;
        if (run.iteration_time_s) {
            out << "  " << units::format_readable(*run.iteration_time_s, units::Dimension::time);
        }
        out << '\n';
    }
    return exit_ok;
}

int show_stored(ResultStore& store, const std::filesystem::path& database, const Target& target,
                const Arguments& arguments, std::ostream& out, std::ostream& err) {
    if (!target.is_sweep) {
        StoredTable run;
        if (auto problem = store.read_run(target.id, run)) return usage_error(err, "runs", *problem);
        if (arguments.flag("json")) {
            StoredRowsWriter writer(out, StoredRowsFormat::json);
            writer.columns(run.names);
            for (const auto& row : run.rows) writer.row(row);
            writer.finish();
            return exit_ok;
        }
        std::size_t width = 0;
        for (const std::string& name : run.names) width = std::max(width, name.size());
        for (std::size_t c = 0; c < run.names.size(); ++c) {
            std::string name = run.names[c];
            name.resize(width + 2, ' ');
            out << name << stored_text(run.rows.front()[c]) << '\n';
        }
        return exit_ok;
    }
    const Expected<SweepSummary> sweep = store.sweep(target.id);
    if (!sweep) return usage_error(err, "runs", quoted_path(database.string()) + " " + sweep.error());
    const Expected<std::int64_t> top = arguments.whole_number("top", 10, 0, 1'000'000);
    if (!top) return usage_error(err, "runs", top.error());
    // Without --metric, "best" is as the sweep ranked it: by throughput when an axis changes the work per iteration.
    if (const auto name = arguments.option("metric"); name && !ranking_metric(*name)) {
        return usage_error(err, "runs", "--metric: " + ranking_metric(*name).error());
    }
    const Expected<DefaultRanking> ranking = stored_sweep_ranking(store, sweep.value(), arguments.option("metric"));
    if (!ranking) return database_error(err, "runs", database, ranking.error());
    const Expected<StoredTable> best = best_points(store, target.id, ranking.value().metric, top.value());
    if (!best) return database_error(err, "runs", database, best.error());
    const SweepSummary& summary = sweep.value();
    out << "sweep:" << summary.id << " " << in_quotes(summary.name) << ", made " << summary.created_at
        << " by ParaSight " << summary.core_version << ": " << summary.stored() << " of "
        << count_phrase(static_cast<std::int64_t>(summary.point_count), "point") << " stored\n";
    print_status_counts(out, summary);
    out << "axes:";
    for (const std::string& path : summary.axis_paths) out << " " << path;
    out << '\n';
    if (!best.value().rows.empty()) print_best_points(out, best.value(), summary.axis_paths, ranking.value());
    return exit_ok;
}

int export_stored(ResultStore& store, const std::filesystem::path& database, const Target& target,
                  const Arguments& arguments, std::ostream& out, std::ostream& err) {
    const std::string format = arguments.option("format").value_or("csv");
    if (format != "csv" && format != "json") {
        return usage_error(err, "runs", "--format is csv or json, not " + in_quotes(format));
    }
    std::unique_ptr<AtomicOutput> file;
    if (const auto path = arguments.option("out")) {
        if (const auto refused =
                refuse_path_clash(err, "runs", {{"--out", *path, false}}, {{"the results database", database, true}})) {
            return *refused;
        }
        auto opened = AtomicOutput::open(*path);
        if (!opened) {
            return usage_error(err, "runs", "--out: cannot write " + quoted_path(*path) + ": " + opened.error());
        }
        file = std::move(opened).value();
    }
    std::ostream& sink = file ? file->stream() : out;
    StoredRowsWriter writer(sink, format == "json" ? StoredRowsFormat::json : StoredRowsFormat::csv);
    const auto problem = target.is_sweep ? store.read_sweep(target.id, writer) : store.read_run(target.id, writer);
    if (problem) {
        if (problem->rfind("holds no ", 0) == 0) {
            return usage_error(err, "runs", quoted_path(database.string()) + " " + *problem);
        }
        return database_error(err, "runs", database, *problem);
    }
    writer.finish();
    if (file) {
        if (auto error = file->commit()) {
            err << "parasight-cli runs: writing " << quoted_path(file->target().string()) << " failed: " << *error
                << '\n';
            return exit_internal_error;
        }
    }
    return exit_ok;
}

int compare_stored(ResultStore& store, const Target& a, const Target& b, bool json, std::ostream& out,
                   std::ostream& err) {
    if (a.is_sweep || b.is_sweep) return usage_error(err, "runs", "compare takes two runs, run:A run:B");
    const Expected<RunComparison, ComparisonProblem> compared = compare_runs(store, a.id, b.id);
    if (!compared) {
        if (compared.error().run_not_held) return usage_error(err, "runs", compared.error().message);
        return database_error(err, "runs", store.path(), compared.error().message);
    }
    const RunComparison& comparison = compared.value();
    if (json) {
        out << run_comparison_json(comparison) << '\n';
        return exit_ok;
    }
    if (comparison.inputs.empty()) {
        out << "inputs: the same scenario\n";
    } else {
        out << "inputs that differ (run:" << a.id << " → run:" << b.id << "):\n";
        std::size_t path_width = 0;
        for (const ScenarioDifference& difference : comparison.inputs) {
            path_width = std::max(path_width, character_count(difference.path));
        }
        for (const ScenarioDifference& difference : comparison.inputs) {
            out << "  " << padded(difference.path, path_width + 2)
                << (difference.before.empty() ? "(none)" : difference.before) << " → "
                << (difference.after.empty() ? "(none)" : difference.after) << '\n';
        }
    }
    out << '\n';
    // The metrics as a table of aligned columns, each number with its unit.
    std::vector<std::vector<std::string>> cells{{"metric", "run:" + std::to_string(a.id), "run:" + std::to_string(b.id),
                                                 "difference", "ratio"}};
    for (const ComparedColumn& column : comparison.columns) {
        const std::string& name = column.name;
        if (name == "warnings" || name == "scenario_hash") continue;  // long; read them with 'runs show'
        const bool counted = is_counted_run_column(name);
        const auto shown = [&](const StoredValue& value) {
            const auto number = stored_number(value);
            return number && !counted ? run_column_text(name, *number) : stored_text(value);
        };
        std::vector<std::string> line{name, shown(column.a), shown(column.b), "", ""};
        if (const auto difference = column.difference()) {
            line[3] = counted ? units::format_number(*difference) : run_column_text(name, *difference, true);
        }
        if (const auto ratio = column.ratio()) line[4] = units::format_fixed(*ratio, 3);
        cells.push_back(std::move(line));
    }
    print_aligned(out, cells);
    return exit_ok;
}

}  // namespace

int run_runs(const std::vector<std::string>& words, std::ostream& out, std::ostream& err) {
    const auto arguments =
        Arguments::parse(words, OptionSpec{{"db", "top", "metric", "format", "out"}, {"json"}, {}});
    if (!arguments) return usage_error(err, "runs", arguments.error());
    const std::vector<std::string>& positional = arguments->positional();
    if (positional.empty()) return usage_error(err, "runs", "say what to do: list, show, export or compare");
    const std::string& action = positional.front();
    const std::size_t targets = action == "list" ? 0 : action == "compare" ? 2 : 1;
    if (action != "list" && action != "show" && action != "export" && action != "compare") {
        return usage_error(err, "runs", "unknown action " + in_quotes(action) + "; the actions are list, show, "
                                                                                "export and compare");
    }
    if (positional.size() != targets + 1) {
        return usage_error(err, "runs", action + " takes " + count_phrase(static_cast<std::int64_t>(targets),
                                                                          "sweep or run", "sweeps or runs"));
    }
    std::vector<Target> parsed;
    for (std::size_t i = 1; i < positional.size(); ++i) {
        Expected<Target> target = parse_target(positional[i]);
        if (!target) return usage_error(err, "runs", target.error());
        parsed.push_back(target.value());
    }
    const Expected<std::filesystem::path> database = store_location(arguments->option("db"));
    if (!database) return usage_error(err, "runs", database.error());
    std::error_code missing;
    if (!std::filesystem::exists(database.value(), missing)) {
        return usage_error(err, "runs", quoted_path(database.value().string()) +
                                            " does not exist: nothing has been stored there yet ('parasight-cli "
                                            "sweep' and 'parasight-cli simulate --db' store results)");
    }
    Expected<ResultStore> store = ResultStore::open(database.value(), ResultStore::Access::read_only);
    if (!store) return database_error(err, "runs", database.value(), store.error());
    if (action == "list") return list_stored(store.value(), database.value(), arguments->flag("json"), out, err);
    if (action == "show") return show_stored(store.value(), database.value(), parsed[0], *arguments, out, err);
    if (action == "export") return export_stored(store.value(), database.value(), parsed[0], *arguments, out, err);
    return compare_stored(store.value(), parsed[0], parsed[1], arguments->flag("json"), out, err);
}

}  // namespace parasight::cli
