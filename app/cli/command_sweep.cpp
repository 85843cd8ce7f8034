#include "commands.h"

#include "cli_arguments.h"
#include "path_checks.h"
#include "common/message_text.h"
#include "common/number_text.h"
#include "export/json_writer.h"
#include "stored_results.h"
#include "store/stored_rows_writer.h"
#include "store/stored_sweep_ranking.h"
#include "store/stored_sweep_run.h"
#include "sweep/sweep_setup.h"
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

// Draws the progress line after each stored batch; stops the sweep on Ctrl-C or SIGTERM.
class SweepProgress final : public StoringSweepObserver {
public:
    SweepProgress(ResultStore& store, const StoredSweepStart& start, const RankingMetric& metric, std::ostream* err)
        : StoringSweepObserver(store, start.sweep_id, metric), to_run_(start.in_shard - start.stored_in_shard),
          total_(start.in_shard), before_(start.stored_in_shard), err_(err),
          terminal_(err != nullptr && isatty(STDERR_FILENO) == 1) {}

    bool cancelled() const override { return stop_signal.load() != 0; }

    void finish() { draw(true); }

private:
    void batch_stored() override { draw(false); }

    void draw(bool last) {
        if (err_ == nullptr) return;
        const auto now = Clock::now();
        if (!last && !terminal_ && now - last_line_ < std::chrono::seconds(10)) return;
        if (!last && terminal_ && now - last_line_ < std::chrono::milliseconds(100)) return;
        last_line_ = now;
        const double seconds = std::chrono::duration<double>(now - started_).count();
        const std::uint64_t done = stored_now();
        const double rate = seconds > 0.0 ? static_cast<double>(done) / seconds : 0.0;
        std::string line = std::to_string(before_ + done) + "/" + std::to_string(total_) + " points, " +
                           units::format_fixed(rate, 1) + " points/s";
        if (!last && rate > 0.0 && done < to_run_) {
            line += ", " + units::format_readable(static_cast<double>(to_run_ - done) / rate, units::Dimension::time) +
                    " left";
        }
        if (best()) {
            line += ", best " + metric().format(*best()) + " at";
            for (const AxisValue& value : best_values()) line += " " + value.path + "=" + value.value;
        }
        if (terminal_) {
            *err_ << "\r\033[K" << line << (last ? "\n" : "") << std::flush;
        } else {
            *err_ << line << '\n' << std::flush;
        }
    }

    using Clock = std::chrono::steady_clock;
    std::uint64_t to_run_;
    std::uint64_t total_;
    std::uint64_t before_;
    std::ostream* err_;
    bool terminal_;
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
    write_status_counts(json, sweep);
    json.key("metric").value(metric.column);
    if (!ranking.reason.empty()) json.key("metric_reason").value(ranking.reason);
    json.key("top").begin_array();
    for (std::size_t r = 0; r < best.rows.size(); ++r) {
        json.begin_object();
        json.key("point").value(std::get<std::int64_t>(best.at(r, "point")));
        json.key("run_id").value(std::get<std::int64_t>(best.at(r, "run_id")));
        json.key("values").begin_object();
        for (const std::string& path : sweep.axis_paths) {
            json.key(path);
            write_stored_value(json, best.at(r, path));
        }
        json.end_object();
        for (const std::string_view column :
             {"iteration_time_s", "samples_per_s", "tokens_per_s", "mfu", "hfu", "peak_memory_bytes"}) {
            json.key(column);
            write_stored_value(json, best.at(r, column));
        }
        json.end_object();
    }
    json.end_array();
    json.end_object();
    return json.text() + "\n";
}

// `top`: how many of the best points were asked for (--top; 0 lists none, and says nothing of them).
void print_sweep_summary(std::ostream& out, const SweepSummary& sweep, const std::filesystem::path& database,
                         const SweepRunCounts& counts, const DefaultRanking& ranking, const StoredTable& best,
                         std::int64_t top) {
    out << "sweep " << sweep.id << " " << in_quotes(sweep.name) << " in " << quoted_path(database.string()) << ": "
        << sweep.stored() << " of " << count_phrase(static_cast<std::int64_t>(sweep.point_count), "point")
        << " stored";
    if (counts.in_shard != sweep.point_count) out << " (this shard: " << counts.in_shard << ")";
    out << "; " << counts.run_now << " run now, " << counts.stored_before << " stored before\n";
    print_status_counts(out, sweep);
    if (top == 0) return;
    if (best.rows.empty()) {
        out << "no point that fits has been simulated yet\n";
        return;
    }
    print_best_points(out, best, sweep.axis_paths, ranking);
}

// A sweep's set-up problem in the command line's words: the file's at their places, an axis or --strategies named.
int setup_error(std::ostream& err, const SweepSetupProblem& problem) {
    using Source = SweepSetupProblem::Source;
    switch (problem.source) {
        case Source::section:
            for (const Diagnostic& diagnostic : problem.diagnostics) err << diagnostic.to_string() << '\n';
            return exit_bad_input;
        case Source::axis: return usage_error(err, "sweep", "--axis " + in_quotes(problem.given) + ": " + problem.message);
        case Source::strategies: return usage_error(err, "sweep", "--strategies: " + problem.message);
        case Source::no_axes:
            return usage_error(err, "sweep", "give at least one --axis PATH=VALUES or --strategies all, or a sweep "
                                             "section in the file");
        case Source::space: break;
    }
    return usage_error(err, "sweep", problem.message);
}

// --jobs and --shard, each checked; the error is the option's.
Expected<SweepOptions> sweep_options(const Arguments& arguments) {
    SweepOptions options;
    const Expected<std::int64_t> jobs =
        arguments.whole_number("jobs", std::max(1U, std::thread::hardware_concurrency()), 1, 1024);
    if (!jobs) return Error{jobs.error()};
    options.jobs = static_cast<int>(jobs.value());
    if (const auto text = arguments.option("shard")) {
        const Expected<Shard> shard = parse_shard(*text);
        if (!shard) return Error{"--shard: " + shard.error()};
        options.shard = shard.value();
    }
    return options;
}

}  // namespace

int run_sweep(const std::vector<std::string>& words, std::ostream& out, std::ostream& err) {
    const auto arguments = Arguments::parse(
        words, OptionSpec{{"axis", "strategies", "jobs", "shard", "db", "top", "metric"}, {"json", "quiet"}, {"axis"}});
    if (!arguments) return usage_error(err, "sweep", arguments.error());
    if (arguments->positional().size() != 1) return usage_error(err, "sweep", "name exactly one scenario FILE");
    const std::string& file = arguments->positional().front();
    Expected<SweepOptions> options = sweep_options(*arguments);
    if (!options) return usage_error(err, "sweep", options.error());
    const Expected<std::int64_t> top = arguments->whole_number("top", 5, 0, 1'000'000);
    if (!top) return usage_error(err, "sweep", top.error());
    // --metric is checked at once; without it, what "best" means depends on the axes (below).
    if (const auto name = arguments->option("metric"); name && !ranking_metric(*name)) {
        return usage_error(err, "sweep", "--metric: " + ranking_metric(*name).error());
    }

    const Expected<SweepBase, Diagnostics> base = read_sweep_base(file);
    if (!base) {
        for (const Diagnostic& diagnostic : base.error()) err << diagnostic.to_string() << '\n';
        return exit_bad_input;
    }
    const Expected<SweepPlan, SweepSetupProblem> plan =
        plan_sweep(base.value(), arguments->all("axis"), arguments->option("strategies"));
    if (!plan) return setup_error(err, plan.error());
    const Expected<DefaultRanking> ranking =
        chosen_ranking(arguments->option("metric"), axis_paths(plan.value()),
                       base.value().scenario.model.kind == ModelKind::transformer);
    if (!ranking) return usage_error(err, "sweep", "--metric: " + ranking.error());

    const Expected<std::filesystem::path> database = store_location(arguments->option("db"));
    if (!database) return usage_error(err, "sweep", database.error());
    if (const auto refused = refuse_path_clash(err, "sweep", {{"--db", database.value(), true}},
                                               scenario_inputs(file, &base.value().scenario))) {
        return *refused;
    }
    Expected<ResultStore> store = ResultStore::open(database.value(), ResultStore::Access::read_write);
    if (!store) {
        err << "parasight-cli sweep: " << quoted_path(database.value().string()) << " " << store.error() << '\n';
        return exit_internal_error;
    }
    const Expected<StoredSweepStart> start = start_stored_sweep(store.value(), plan.value(), options.value());
    if (!start) return database_error(err, "sweep", database.value(), start.error());

    SweepOutcome outcome;
    {
        const StopSignals signals;
        SweepProgress progress(store.value(), start.value(), ranking.value().metric,
                               arguments->flag("quiet") ? nullptr : &err);
        outcome = parasight::run_sweep(plan.value(), options.value(), progress);
        progress.finish();
    }
    if (outcome.error) return database_error(err, "sweep", database.value(), *outcome.error);

    const Expected<SweepSummary> summary = store.value().sweep(start.value().sweep_id);
    if (!summary) return database_error(err, "sweep", database.value(), summary.error());
    Expected<StoredTable> best = best_points(store.value(), start.value().sweep_id, ranking.value().metric, top.value());
    if (!best) return database_error(err, "sweep", database.value(), best.error());
    const SweepRunCounts counts{start.value().in_shard, outcome.run, outcome.already_done, outcome.cancelled};
    if (arguments->flag("json")) {
        out << sweep_json(summary.value(), database.value(), counts, ranking.value(), best.value());
    } else {
        print_sweep_summary(out, summary.value(), database.value(), counts, ranking.value(), best.value(),
                            top.value());
    }
    if (outcome.cancelled) {
        err << "parasight-cli sweep: interrupted; " << count_phrase(static_cast<std::int64_t>(outcome.run), "point")
            << " stored this time. Run the same command again to resume.\n";
        return 128 + stop_signal.load();
    }
    return exit_ok;
}

}  // namespace parasight::cli
