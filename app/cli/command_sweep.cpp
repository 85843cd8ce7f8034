#include "commands.h"

#include "cli_arguments.h"
#include "path_checks.h"
#include "common/message_text.h"
#include "common/number_text.h"
#include "export/json_writer.h"
#include "scenario_file/scenario_loader.h"
#include "scenario_file/scenario_writer.h"
#include "stored_results.h"
#include "store/result_store.h"
#include "scenario_file/sweep_section.h"
#include "sweep/strategy_space.h"
#include "sweep/sweep_definition.h"
#include "sweep/sweep_runner.h"
#include "units/quantity.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <ostream>
#include <thread>

namespace parasight::cli {

const std::string_view sweep_help = R"(usage: parasight-cli sweep FILE [--axis PATH=VALUES ...]
                             [--strategies all|degrees] [--jobs N] [--shard K/N] [--db DB] [--top K]
                             [--metric M] [--json] [--quiet]

Simulates every combination of the axes' values on scenario FILE and stores each point in a results database
(docs/store.md): simulated points with every metric; a run that takes a device past its memory stopped at that
allocation, as oom; points whose model states and activations in flight cannot fit by the closed-form bound as
oom_estimated (not simulated); invalid points with the loader's reasons. Running the same sweep again skips the points already stored, so an interrupted sweep resumes
where it stopped.

  --axis PATH=VALUES  a scenario path and its values, repeatable (added after the axes of FILE's sweep section):
                        parallelism.tp=1,2,4,8            a list
                        parallelism.pp=1..64 x2           1, 2, 4, ..., 64
                        'cluster.topology[1].bandwidth=100..400 GB/s +50 GB/s'
                        parallelism.schedule=1f1b,gpipe,interleaved
                      axes joined by & are zipped: their k-th values go together (as many each)
                        'parallelism.recompute=full,selective & parallelism.sequence_parallel=false,true'
                      the last axis varies fastest; points are numbered in that order
  --strategies S      add the built-in strategy space as the last axis: all (every tp x pp x dp that fits the
                      model and the devices x schedule x virtual stages x micro-batch x ZeRO x recompute x sequence
                      parallelism) or degrees (every tp x pp x dp alone); dp keeps the device count
  --jobs N            threads (default: every core)
  --shard K/N         run only the K-th of N shares of the points (point k when k mod N = K - 1), for a job array;
                      'parasight-cli merge' joins the shards' databases
  --db DB             the results database (default: $XDG_DATA_HOME/parasight/results.db, or
                      ~/.local/share/parasight/results.db)
  --top K             list the best K points when done (default 5; 0 lists none)
  --metric M          what "best" means: iteration_time_s (the default, unless an axis changes the work per
                      iteration — training.global_batch, model.*: then tokens_per_s, or samples_per_s for a CNN),
                      samples_per_s, tokens_per_s, mfu, hfu, peak_memory_bytes
  --json              print one JSON object when done: sweep_id, database, name, points, run_now, stored_before,
                      interrupted, by_status {ok, oom, oom_estimated, invalid, failed}, metric, metric_reason
                      (when the default is not iteration_time_s), top [...]
  --quiet             no progress on standard error

Progress goes to standard error: points done of the total, points per second, time left and the best point so far
(a line rewritten in place on a terminal, one line every 10 s otherwise). Ctrl-C or SIGTERM stops the sweep after
storing the points that finished; run the same command again to finish it.

exit status: 0 every point of the shard is stored; 2 bad input (FILE, an axis, an option); 1 a database or internal
error; 130 interrupted by Ctrl-C, 143 by SIGTERM (what finished is stored)
)";

namespace {

std::atomic<int> stop_signal{0};

extern "C" void on_stop_signal(int number) { stop_signal.store(number); }

// Ctrl-C and SIGTERM (what Slurm sends before a job's time is up) stop the sweep gracefully while it runs.
class StopSignals {
public:
    StopSignals() {
        stop_signal = 0;
        struct sigaction action {};
        action.sa_handler = on_stop_signal;
        sigemptyset(&action.sa_mask);
        sigaction(SIGINT, &action, &previous_interrupt_);
        sigaction(SIGTERM, &action, &previous_terminate_);
    }
    ~StopSignals() {
        sigaction(SIGINT, &previous_interrupt_, nullptr);
        sigaction(SIGTERM, &previous_terminate_, nullptr);
    }
    StopSignals(const StopSignals&) = delete;
    StopSignals& operator=(const StopSignals&) = delete;

private:
    struct sigaction previous_interrupt_ {};
    struct sigaction previous_terminate_ {};
};

// Stores each batch, counts, keeps the best point so far and draws the progress line.
class SweepProgress final : public SweepObserver {
public:
    SweepProgress(ResultStore& store, std::int64_t sweep_id, std::uint64_t to_run, std::uint64_t total,
                  std::uint64_t before, const RankingMetric& metric, std::ostream* err)
        : store_(store), sweep_id_(sweep_id), to_run_(to_run), total_(total), before_(before), metric_(metric),
          err_(err), terminal_(err != nullptr && isatty(STDERR_FILENO) == 1) {}

    std::optional<std::string> points_done(std::span<const PointResult> points) override {
        if (auto problem = store_.add_points(sweep_id_, points)) return problem;
        done_ += points.size();
        for (const PointResult& point : points) {
            if (point.status != PointStatus::ok || !point.report) continue;
            const double value = metric_.of(*point.report);
            if (!best_ || metric_.better(value, *best_)) {
                best_ = value;
                best_values_ = point.values;
            }
        }
        draw(false);
        return std::nullopt;
    }

    bool cancelled() const override { return stop_signal.load() != 0; }

    void finish() { draw(true); }

private:
    void draw(bool last) {
        if (err_ == nullptr) return;
        const auto now = Clock::now();
        if (!last && !terminal_ && now - last_line_ < std::chrono::seconds(10)) return;
        if (!last && terminal_ && now - last_line_ < std::chrono::milliseconds(100)) return;
        last_line_ = now;
        const double seconds = std::chrono::duration<double>(now - started_).count();
        const double rate = seconds > 0.0 ? static_cast<double>(done_) / seconds : 0.0;
        std::string line = std::to_string(before_ + done_) + "/" + std::to_string(total_) + " points, " +
                           units::format_fixed(rate, 1) + " points/s";
        if (!last && rate > 0.0 && done_ < to_run_) {
            line += ", " + units::format_readable(static_cast<double>(to_run_ - done_) / rate, units::Dimension::time) +
                    " left";
        }
        if (best_) {
            line += ", best " + metric_.format(*best_) + " at";
            for (const AxisValue& value : best_values_) line += " " + value.path + "=" + value.value;
        }
        if (terminal_) {
            *err_ << "\r\033[K" << line << (last ? "\n" : "") << std::flush;
        } else {
            *err_ << line << '\n' << std::flush;
        }
    }

    using Clock = std::chrono::steady_clock;
    ResultStore& store_;
    std::int64_t sweep_id_;
    std::uint64_t to_run_;
    std::uint64_t total_;
    std::uint64_t before_;
    const RankingMetric& metric_;
    std::ostream* err_;
    bool terminal_;
    std::uint64_t done_ = 0;
    std::optional<double> best_;
    std::vector<AxisValue> best_values_;
    Clock::time_point started_ = Clock::now();
    Clock::time_point last_line_ = started_;
};

struct SweepRunCounts {
    std::uint64_t in_shard = 0;
    std::uint64_t run_now = 0;
    std::uint64_t stored_before = 0;
    bool interrupted = false;
};

std::string sweep_json(const SweepSummary& sweep, const std::filesystem::path& database, const SweepRunCounts& counts,
                       const DefaultRanking& ranking, const StoredTable& best) {
    const RankingMetric& metric = ranking.metric;
    JsonWriter json;
    json.begin_object();
    json.key("sweep_id").value(sweep.id);
    json.key("database").value(database.string());
    json.key("name").value(sweep.name);
    json.key("points").value(static_cast<std::int64_t>(sweep.point_count));
    json.key("points_in_shard").value(static_cast<std::int64_t>(counts.in_shard));
    json.key("stored").value(static_cast<std::int64_t>(sweep.stored()));
    json.key("run_now").value(static_cast<std::int64_t>(counts.run_now));
    json.key("stored_before").value(static_cast<std::int64_t>(counts.stored_before));
    json.key("interrupted").value(counts.interrupted);
    json.key("by_status").begin_object();
    for (const auto& status : point_status_names) {
        const std::uint64_t stored = sweep.stored_by_status[static_cast<std::size_t>(status.value)];
        json.key(status.name).value(static_cast<std::int64_t>(stored));
    }
    json.end_object();
    json.key("metric").value(metric.column);
    if (!ranking.reason.empty()) json.key("metric_reason").value(ranking.reason);
    json.key("top").begin_array();
    const int point = best.column("point");
    const int run = best.column("run_id");
    for (const auto& row : best.rows) {
        json.begin_object();
        json.key("point").value(std::get<std::int64_t>(row[static_cast<std::size_t>(point)]));
        json.key("run_id").value(std::get<std::int64_t>(row[static_cast<std::size_t>(run)]));
        json.key("values").begin_object();
        for (const std::string& path : sweep.axis_paths) {
            const StoredValue& value = row[static_cast<std::size_t>(best.column(path))];
            json.key(path);
            if (const auto* integer = std::get_if<std::int64_t>(&value)) {
                json.value(*integer);
            } else if (const auto* real = std::get_if<double>(&value)) {
                json.value(*real);
            } else {
                json.value(stored_text(value));
            }
        }
        json.end_object();
        for (const std::string_view column :
             {"iteration_time_s", "samples_per_s", "tokens_per_s", "mfu", "hfu", "peak_memory_bytes"}) {
            const auto* value = std::get_if<double>(&row[static_cast<std::size_t>(best.column(column))]);
            json.key(column);
            if (value != nullptr) {
                json.value(*value);
            } else {
                json.null();
            }
        }
        json.end_object();
    }
    json.end_array();
    json.end_object();
    return json.text() + "\n";
}

void print_sweep_summary(std::ostream& out, const SweepSummary& sweep, const std::filesystem::path& database,
                         const SweepRunCounts& counts, const DefaultRanking& ranking, const StoredTable& best) {
    const RankingMetric& metric = ranking.metric;
    out << "sweep " << sweep.id << " " << in_quotes(sweep.name) << " in " << quoted_path(database.string()) << ": "
        << sweep.stored() << " of " << count_phrase(static_cast<std::int64_t>(sweep.point_count), "point")
        << " stored";
    if (counts.in_shard != sweep.point_count) out << " (this shard: " << counts.in_shard << ")";
    out << "; " << counts.run_now << " run now, " << counts.stored_before << " stored before\n ";
    for (const auto& status : point_status_names) {
        out << " " << status.name << " " << sweep.stored_by_status[static_cast<std::size_t>(status.value)];
    }
    out << '\n';
    if (best.rows.empty()) {
        out << "no point that fits has been simulated yet\n";
        return;
    }
    out << "best " << best.rows.size() << " by " << metric.column;
    if (!ranking.reason.empty()) out << " (" << ranking.reason << ")";
    out << ":\n";
    print_best_points(out, best, sweep.axis_paths, metric);
}

}  // namespace

int run_sweep(const std::vector<std::string>& words, std::ostream& out, std::ostream& err) {
    const auto arguments = Arguments::parse(
        words, OptionSpec{{"axis", "strategies", "jobs", "shard", "db", "top", "metric"}, {"json", "quiet"}, {"axis"}});
    if (!arguments) return usage_error(err, "sweep", arguments.error());
    if (arguments->positional().size() != 1) return usage_error(err, "sweep", "name exactly one scenario FILE");
    const std::string& file = arguments->positional().front();

    SweepOptions options;
    options.jobs = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
    if (const auto text = arguments->option("jobs")) {
        const auto jobs = parse_integer(*text);
        if (!jobs || *jobs < 1 || *jobs > 1024) {
            return usage_error(err, "sweep", "--jobs must be a whole number from 1 to 1024, not " + in_quotes(*text));
        }
        options.jobs = static_cast<int>(*jobs);
    }
    if (const auto text = arguments->option("shard")) {
        const Expected<Shard> shard = parse_shard(*text);
        if (!shard) return usage_error(err, "sweep", "--shard: " + shard.error());
        options.shard = shard.value();
    }
    std::int64_t top = 5;
    if (const auto text = arguments->option("top")) {
        const auto parsed = parse_integer(*text);
        if (!parsed || *parsed < 0 || *parsed > 1'000'000) {
            return usage_error(err, "sweep", "--top must be a whole number from 0 to 1000000, not " + in_quotes(*text));
        }
        top = *parsed;
    }
    // --metric is checked at once; without it, what "best" means depends on the axes (below).
    if (const auto name = arguments->option("metric"); name && !ranking_metric(*name)) {
        return usage_error(err, "sweep", "--metric: " + ranking_metric(*name).error());
    }

    // The base scenario: read as a file is (its reading problems are the file's), not yet cross-checked — the
    // axes may be what makes it valid.
    const ReadResult read = read_scenario_file(file);
    if (!read.diagnostics.empty() || !read.scenario) {
        for (const Diagnostic& diagnostic : read.diagnostics) err << diagnostic.to_string() << '\n';
        return exit_bad_input;
    }
    // Complete (kv_heads, ffn_hidden from the model) when it is valid as it stands, so that every field has a path.
    const Validation validated = validate(*read.scenario);
    const std::string base_yaml =
        write_scenario_yaml(validated.ok() ? validated.scenario->value() : *read.scenario);

    // The file's sweep section first, then the command line's axes, then the strategy space.
    const SweepSectionRead section = read_sweep_section_file(file);
    if (!section.diagnostics.empty()) {
        for (const Diagnostic& diagnostic : section.diagnostics) err << diagnostic.to_string() << '\n';
        return exit_bad_input;
    }
    const SweepSection from_file = section.section.value_or(SweepSection{});
    std::optional<StrategySpace> strategy_space;
    if (const auto strategies = arguments->option("strategies")) {
        if (!from_file.strategies.empty()) {
            return usage_error(err, "sweep", "--strategies: the file's sweep section already sets strategies");
        }
        const Expected<StrategySpace> space = parse_strategy_space(*strategies);
        if (!space) return usage_error(err, "sweep", "--strategies: " + space.error());
        strategy_space = space.value();
    }
    const SweepDefinition definition = sweep_definition(from_file, *read.scenario, base_yaml);
    if (!definition.diagnostics.empty()) {
        for (const Diagnostic& diagnostic : definition.diagnostics) err << diagnostic.to_string() << '\n';
        return exit_bad_input;
    }
    std::vector<SweepAxis> axes = definition.axes;
    for (const std::string& spec : arguments->all("axis")) {
        Expected<std::vector<SweepAxis>> parsed = parse_sweep_axes(spec);
        if (!parsed) return usage_error(err, "sweep", "--axis " + in_quotes(spec) + ": " + parsed.error());
        for (SweepAxis& axis : parsed.value()) {
            if (auto missing = missing_path(base_yaml, axis.path)) {
                return usage_error(err, "sweep", "--axis " + in_quotes(spec) + ": " + axis.path + ": " + *missing);
            }
            axes.push_back(std::move(axis));
        }
    }
    // The section's strategies come last, after the command line's axes.
    axes.insert(axes.end(), definition.strategy_axes.begin(), definition.strategy_axes.end());
    if (strategy_space) {
        const std::vector<SweepAxis> strategies = strategy_axes(*read.scenario, *strategy_space);
        if (strategies.empty()) {
            return usage_error(err, "sweep", "--strategies: no strategy lays this model onto this cluster's devices");
        }
        axes.insert(axes.end(), strategies.begin(), strategies.end());
    }
    if (axes.empty()) {
        return usage_error(err, "sweep", "give at least one --axis PATH=VALUES or --strategies all, or a sweep "
                                         "section in the file");
    }
    Expected<SweepSpace> space = SweepSpace::of(axes);
    if (!space) return usage_error(err, "sweep", space.error());
    std::vector<std::string> axis_paths;
    for (const SweepAxis& axis : axes) axis_paths.push_back(axis.path);
    const Expected<DefaultRanking> ranking = chosen_ranking(arguments->option("metric"), axis_paths,
                                                            read.scenario->model.kind == ModelKind::transformer);
    if (!ranking) return usage_error(err, "sweep", "--metric: " + ranking.error());
    const RankingMetric& metric = ranking.value().metric;

    const Expected<std::filesystem::path> database = store_location(arguments->option("db"));
    if (!database) return usage_error(err, "sweep", database.error());
    if (const auto refused = refuse_path_clash(err, "sweep", {{"--db", database.value(), true}},
                                               scenario_inputs(file, &*read.scenario))) {
        return *refused;
    }
    Expected<ResultStore> store = ResultStore::open(database.value(), ResultStore::Access::read_write);
    if (!store) {
        err << "parasight-cli sweep: " << quoted_path(database.value().string()) << " " << store.error() << '\n';
        return exit_internal_error;
    }
    const SweepRecord record{read.scenario->name, base_yaml, axes, space.value().point_count()};
    const Expected<std::int64_t> sweep_id = store.value().open_sweep(record);
    if (!sweep_id) return database_error(err, "sweep", database.value(), sweep_id.error());
    Expected<std::vector<std::uint64_t>> done = store.value().stored_points(sweep_id.value());
    if (!done) return database_error(err, "sweep", database.value(), done.error());
    options.done = std::move(done).value();

    const std::filesystem::path folder = std::filesystem::path(file).parent_path();
    const SweepPlan plan{read.scenario->name, base_yaml, folder.empty() ? "." : folder, std::move(space).value(),
                         name_facts(*read.scenario)};
    const std::uint64_t in_shard = options.shard.size_of(plan.space.point_count());
    std::uint64_t stored_in_shard = 0;
    for (const std::uint64_t point : options.done) stored_in_shard += options.shard.holds(point) ? 1 : 0;

    SweepOutcome outcome;
    {
        const StopSignals signals;
        SweepProgress progress(store.value(), sweep_id.value(), in_shard - stored_in_shard, in_shard,
                               stored_in_shard, metric, arguments->flag("quiet") ? nullptr : &err);
        outcome = parasight::run_sweep(plan, options, progress);
        progress.finish();
    }
    if (outcome.error) return database_error(err, "sweep", database.value(), *outcome.error);

    const Expected<SweepSummary> summary = store.value().sweep(sweep_id.value());
    if (!summary) return database_error(err, "sweep", database.value(), summary.error());
    Expected<StoredTable> best = best_points(store.value(), sweep_id.value(), metric, top);
    if (!best) return database_error(err, "sweep", database.value(), best.error());
    const SweepRunCounts counts{in_shard, outcome.run, outcome.already_done, outcome.cancelled};
    if (arguments->flag("json")) {
        out << sweep_json(summary.value(), database.value(), counts, ranking.value(), best.value());
    } else {
        print_sweep_summary(out, summary.value(), database.value(), counts, ranking.value(), best.value());
    }
    if (outcome.cancelled) {
        err << "parasight-cli sweep: interrupted; " << count_phrase(static_cast<std::int64_t>(outcome.run), "point")
            << " stored this time. Run the same command again to resume.\n";
        return 128 + stop_signal.load();
    }
    return exit_ok;
}

}  // namespace parasight::cli
