#include "commands.h"

#include "cli_arguments.h"
#include "path_checks.h"
#include "common/message_text.h"
#include "common/number_text.h"
#include "export/json_writer.h"
#include "scenario_file/scenario_diff.h"
#include "scenario_file/scenario_loader.h"
#include "io/atomic_output.h"
#include "stored_results.h"
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

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
    std::string quoted = "\"";
    for (const char c : text) {
        if (c == '"') quoted += '"';
        quoted += c;
    }
    return quoted + '"';
}

void write_value(JsonWriter& json, const StoredValue& value) {
    if (const auto* integer = std::get_if<std::int64_t>(&value)) {
        json.value(*integer);
    } else if (const auto* real = std::get_if<double>(&value)) {
        json.value(*real);
    } else if (const auto* text = std::get_if<std::string>(&value)) {
        json.value(*text);
    } else {
        json.null();
    }
}

// Streams rows as CSV (a header, then a line per row) or as a JSON array of objects.
class ExportWriter final : public RowVisitor {
public:
    ExportWriter(std::ostream& out, bool json) : out_(out), json_(json), writer_(false) {}

    void columns(const std::vector<std::string>& names) override {
        names_ = names;
        if (json_) {
            writer_.begin_array();
            return;
        }
        for (std::size_t c = 0; c < names.size(); ++c) out_ << (c > 0 ? "," : "") << csv_field(names[c]);
        out_ << '\n';
    }
    void row(const std::vector<StoredValue>& values) override {
        if (json_) {
            writer_.begin_object();
            for (std::size_t c = 0; c < values.size(); ++c) {
                writer_.key(names_[c]);
                write_value(writer_, values[c]);
            }
            writer_.end_object();
            writer_.drain(out_);
            return;
        }
        for (std::size_t c = 0; c < values.size(); ++c) out_ << (c > 0 ? "," : "") << csv_field(stored_text(values[c]));
        out_ << '\n';
    }
    void finish() {
        if (!json_) return;
        writer_.end_array();
        writer_.drain(out_);
        out_ << '\n';
    }

private:
    std::ostream& out_;
    bool json_;
    JsonWriter writer_;
    std::vector<std::string> names_;
};

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
            writer.key("by_status").begin_object();
            for (const auto& status : point_status_names) {
                const std::uint64_t count = sweep.stored_by_status[static_cast<std::size_t>(status.value)];
                writer.key(status.name).value(static_cast<std::int64_t>(count));
            }
            writer.end_object();
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
            ExportWriter writer(out, true);
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
    std::int64_t top = 10;
    if (const auto text = arguments.option("top")) {
        const auto parsed = parse_integer(*text);
        if (!parsed || *parsed < 0 || *parsed > 1'000'000) {
            return usage_error(err, "runs", "--top must be a whole number from 0 to 1000000, not " + in_quotes(*text));
        }
        top = *parsed;
    }
    // Without --metric, "best" is as the sweep ranked it: by throughput when an axis changes the work per iteration.
    const Expected<std::string> base = store.scenario_yaml(sweep.value().base_scenario_hash);
    if (!base) return database_error(err, "runs", database, base.error());
    const ReadResult base_scenario = read_scenario_text(base.value(), "the sweep's base scenario");
    const bool transformer = !base_scenario.scenario || base_scenario.scenario->model.kind == ModelKind::transformer;
    const Expected<DefaultRanking> ranking =
        chosen_ranking(arguments.option("metric"), sweep.value().axis_paths, transformer);
    if (!ranking) return usage_error(err, "runs", "--metric: " + ranking.error());
    const RankingMetric& metric = ranking.value().metric;
    const Expected<StoredTable> best = best_points(store, target.id, metric, top);
    if (!best) return database_error(err, "runs", database, best.error());
    const SweepSummary& summary = sweep.value();
    out << "sweep:" << summary.id << " " << in_quotes(summary.name) << ", made " << summary.created_at
        << " by ParaSight " << summary.core_version << ": " << summary.stored() << " of "
        << count_phrase(static_cast<std::int64_t>(summary.point_count), "point") << " stored\n ";
    for (const auto& status : point_status_names) {
        out << " " << status.name << " " << summary.stored_by_status[static_cast<std::size_t>(status.value)];
    }
    out << "\naxes:";
    for (const std::string& path : summary.axis_paths) out << " " << path;
    out << '\n';
    if (!best.value().rows.empty()) {
        out << "best " << best.value().rows.size() << " by " << metric.column;
        if (!ranking.value().reason.empty()) out << " (" << ranking.value().reason << ")";
        out << ":\n";
        print_best_points(out, best.value(), summary.axis_paths, metric);
    }
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
    ExportWriter writer(sink, format == "json");
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
    StoredTable first;
    StoredTable second;
    if (auto problem = store.read_run(a.id, first)) return usage_error(err, "runs", *problem);
    if (auto problem = store.read_run(b.id, second)) return usage_error(err, "runs", *problem);
    // Which inputs differ: the two runs' scenarios, path by path.
    const int hash_column = first.column("scenario_hash");
    std::vector<ScenarioDifference> inputs;
    if (hash_column >= 0) {
        Expected<std::string> before = store.scenario_yaml(stored_text(first.rows.front()[static_cast<std::size_t>(hash_column)]));
        Expected<std::string> after = store.scenario_yaml(stored_text(second.rows.front()[static_cast<std::size_t>(hash_column)]));
        if (!before) return database_error(err, "runs", store.path(), before.error());
        if (!after) return database_error(err, "runs", store.path(), after.error());
        inputs = scenario_differences(before.value(), after.value());
    }
    JsonWriter writer;
    writer.begin_object().key("a").value(a.id).key("b").value(b.id).key("inputs").begin_array();
    for (const ScenarioDifference& difference : inputs) {
        writer.begin_object().key("path").value(difference.path).key("a").value(difference.before).key("b").value(
            difference.after);
        writer.end_object();
    }
    writer.end_array().key("metrics").begin_object();
    if (!json) {
        if (inputs.empty()) {
            out << "inputs: the same scenario\n";
        } else {
            out << "inputs that differ (run:" << a.id << " → run:" << b.id << "):\n";
            std::size_t path_width = 0;
            for (const ScenarioDifference& difference : inputs) {
                path_width = std::max(path_width, character_count(difference.path));
            }
            for (const ScenarioDifference& difference : inputs) {
                out << "  " << padded(difference.path, path_width + 2)
                    << (difference.before.empty() ? "(none)" : difference.before) << " → "
                    << (difference.after.empty() ? "(none)" : difference.after) << '\n';
            }
        }
        out << '\n';
    }
    // The metrics as a table of aligned columns, each number with its unit.
    std::vector<std::vector<std::string>> cells{{"metric", "run:" + std::to_string(a.id), "run:" + std::to_string(b.id),
                                                 "difference", "ratio"}};
    for (std::size_t c = 0; c < first.names.size(); ++c) {
        const std::string& name = first.names[c];
        if (name == "id") continue;
        const StoredValue& left = first.rows.front()[c];
        const StoredValue& right = second.rows.front()[c];
        const auto number = [](const StoredValue& value) -> std::optional<double> {
            if (const auto* real = std::get_if<double>(&value)) return *real;
            if (const auto* integer = std::get_if<std::int64_t>(&value)) return static_cast<double>(*integer);
            return std::nullopt;
        };
        const auto x = number(left);
        const auto y = number(right);
        if (json) {
            writer.key(name).begin_object().key("a");
            write_value(writer, left);
            writer.key("b");
            write_value(writer, right);
            if (x && y) writer.key("difference").value(*y - *x);
            writer.end_object();
            continue;
        }
        if (name == "warnings" || name == "scenario_hash") continue;  // long; read them with 'runs show'
        const bool counted = name == "devices" || name == "events" || name == "oom_npu";
        const auto shown = [&](const StoredValue& value, const std::optional<double>& as_number) {
            return as_number && !counted ? run_column_text(name, *as_number) : stored_text(value);
        };
        std::vector<std::string> line{name, shown(left, x), shown(right, y), "", ""};
        if (x && y) {
            line[3] = counted ? units::format_number(*y - *x) : run_column_text(name, *y - *x, true);
            if (*x != 0.0) line[4] = units::format_fixed(*y / *x, 3);
        }
        cells.push_back(std::move(line));
    }
    if (json) {
        writer.end_object().end_object();
        out << writer.text() << '\n';
        return exit_ok;
    }
    std::vector<std::size_t> widths(5, 0);
    for (const auto& line : cells) {
        for (std::size_t c = 0; c < line.size(); ++c) widths[c] = std::max(widths[c], character_count(line[c]));
    }
    for (const auto& line : cells) {
        std::string text;
        for (std::size_t c = 0; c < line.size(); ++c) {
            // The names left-aligned, the numbers right-aligned, two spaces between.
            const std::string padding(widths[c] - character_count(line[c]), ' ');
            text += c == 0 ? line[c] + padding : padding + line[c];
            if (c + 1 < line.size()) text += "  ";
        }
        while (!text.empty() && text.back() == ' ') text.pop_back();
        out << text << '\n';
    }
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
