// Reading stored results back for people (store/stored_table.h, stored_rows_writer.h, stored_sweep_ranking.h,
// run_comparison.h) and running a sweep into the store (store/stored_sweep_run.h): CSV and JSON exports, two runs
// compared, the best points of a stored sweep and its default ranking, a resumed sweep's counts and the best point
// kept while it runs.

#include "store/run_comparison.h"
#include "store/stored_rows_writer.h"
#include "store/stored_sweep_ranking.h"
#include "store/stored_sweep_run.h"
#include "half_stored_sweep.h"

#include <QTemporaryDir>
#include <sqlite3.h>
#include <QtTest>

#include <sstream>

using namespace parasight;

namespace {

Report report_with(double iteration_time_s, double tokens_per_s) {
    Report report;
    report.iteration_time_s = iteration_time_s;
    report.tokens_per_s = tokens_per_s;
    report.devices = 8;
    report.mode = "representative";
    return report;
}

// A sweep over tp ∈ {1, 2, 4} whose points are stored as `statuses` say, point k with an iteration of
// `times[k]` seconds and 1000 / times[k] tokens/s.
struct TinySweep {
    SweepRecord record{"tiny", "schema: 1\nname: tiny\nmodel: {kind: transformer}\n",
                       {{"parallelism.tp", {"1", "2", "4"}}}, 3};
    std::vector<double> times{0.3, 0.1, 0.2};

    PointResult point(std::uint64_t k, PointStatus status) const {
        PointResult result;
        result.point = k;
        result.values = {{"parallelism.tp", record.axes[0].values[k]}};
        result.scenario_name = "tiny";
        result.scenario_yaml = record.base_yaml + "# tp " + record.axes[0].values[k] + "\n";
        result.status = status;
        if (status == PointStatus::ok) result.report = report_with(times[k], 1000.0 / times[k]);
        if (status == PointStatus::invalid) result.reason = "parallelism.tp: 4 does not divide 2 heads";
        return result;
    }
};

}  // namespace

class TestStoredResults : public QObject {
    Q_OBJECT
private slots:
    void rowsExportAsCsvAndJson();
    void twoRunsCompareInputsAndColumns();
    void theBestPointsOfAStoredSweep();
    void aResumedSweepCountsWhatItHoldsAndKeepsTheBest();
    void aStoredSweepIsPlannedAgainToResume();
};

void TestStoredResults::rowsExportAsCsvAndJson() {
    const std::vector<std::string> names{"point", "name", "time_s", "note"};
    const std::vector<StoredValue> row{std::int64_t{3}, std::string("a, \"b\""), 0.25, std::monostate{}};
    std::ostringstream csv;
    StoredRowsWriter csv_writer(csv, StoredRowsFormat::csv);
    csv_writer.columns(names);
    csv_writer.row(row);
    csv_writer.finish();
    // RFC 4180: the field with a comma and quotes is quoted, its quotes doubled; NULL is empty.
    QCOMPARE(csv.str(), std::string("point,name,time_s,note\n3,\"a, \"\"b\"\"\",0.25,\n"));

    std::ostringstream json;
    StoredRowsWriter json_writer(json, StoredRowsFormat::json);
    json_writer.columns(names);
    json_writer.row(row);
    json_writer.row(row);
    json_writer.finish();
    QCOMPARE(json.str(), std::string("[{\"point\":3,\"name\":\"a, \\\"b\\\"\",\"time_s\":0.25,\"note\":null},"
                                     "{\"point\":3,\"name\":\"a, \\\"b\\\"\",\"time_s\":0.25,\"note\":null}]\n"));
}

void TestStoredResults::twoRunsCompareInputsAndColumns() {
    QTemporaryDir folder;
    Expected<ResultStore> store = ResultStore::open((folder.path() + "/r.db").toStdString(),
                                                    ResultStore::Access::read_write);
    QVERIFY(store);
    const Expected<std::int64_t> a = store.value().add_run("a", "schema: 1\ntraining: {global_batch: 16}\n",
                                                           report_with(0.5, 2000.0));
    const Expected<std::int64_t> b = store.value().add_run("b", "schema: 1\ntraining: {global_batch: 32}\n",
                                                           report_with(0.8, 4000.0));
    QVERIFY(a && b);
    const auto compared = compare_runs(store.value(), a.value(), b.value());
    QVERIFY(compared);
    QCOMPARE(compared.value().inputs.size(), std::size_t{1});
    QCOMPARE(compared.value().inputs[0].path, std::string("training.global_batch"));
    QCOMPARE(compared.value().inputs[0].before, std::string("16"));
    QCOMPARE(compared.value().inputs[0].after, std::string("32"));
    const auto column = [&](std::string_view name) {
        for (const ComparedColumn& c : compared.value().columns) {
            if (c.name == name) return c;
        }
        return ComparedColumn{};
    };
    QVERIFY(column("id").name.empty());  // the run's own number is not compared
    // 0.8 − 0.5 = 0.3 s longer, 0.8 / 0.5 = 1.6 times; tokens/s 4000 / 2000 = 2.
    QCOMPARE(column("iteration_time_s").difference().value(), 0.8 - 0.5);
    QCOMPARE(column("iteration_time_s").ratio().value(), 1.6);
    QCOMPARE(column("tokens_per_s").ratio().value(), 2.0);
    QVERIFY(!column("mode").difference());     // text
    QVERIFY(!column("oom_npu").difference());  // NULL in both
    QCOMPARE(std::get<std::string>(column("scenario_name").b), std::string("b"));

    const auto missing = compare_runs(store.value(), a.value(), 99);
    QVERIFY(!missing);
    QVERIFY(missing.error().run_not_held);
    QCOMPARE(missing.error().message, std::string("holds no run 99"));
}

void TestStoredResults::theBestPointsOfAStoredSweep() {
    QTemporaryDir folder;
    Expected<ResultStore> store = ResultStore::open((folder.path() + "/r.db").toStdString(),
                                                    ResultStore::Access::read_write);
    QVERIFY(store);
    TinySweep tiny;
    const Expected<std::int64_t> id = store.value().open_sweep(tiny.record);
    QVERIFY(id);
    const std::vector<PointResult> points{tiny.point(0, PointStatus::ok), tiny.point(1, PointStatus::ok),
                                          tiny.point(2, PointStatus::invalid)};
    QVERIFY(!store.value().add_points(id.value(), points));
    // By iteration time, shortest first: point 1 (0.1 s), then point 0 (0.3 s); the invalid point is not ranked.
    const Expected<StoredTable> fastest = best_points(store.value(), id.value(), RankingMetric{"iteration_time_s"}, 5);
    QVERIFY(fastest);
    QCOMPARE(fastest.value().rows.size(), std::size_t{2});
    QCOMPARE(std::get<std::int64_t>(fastest.value().at(0, "point")), std::int64_t{1});
    QCOMPARE(std::get<std::int64_t>(fastest.value().at(1, "point")), std::int64_t{0});
    QCOMPARE(std::get<std::int64_t>(fastest.value().at(0, "parallelism.tp")), std::int64_t{2});
    QCOMPARE(stored_text(fastest.value().at(0, "no such column")), std::string());

    const Expected<SweepSummary> summary = store.value().sweep(id.value());
    QVERIFY(summary);
    // Over tp alone the work per iteration stays: the iteration time ranks.
    const Expected<DefaultRanking> ranking = stored_sweep_ranking(store.value(), summary.value(), std::nullopt);
    QVERIFY(ranking);
    QCOMPARE(ranking.value().metric.column, std::string_view("iteration_time_s"));
    const Expected<DefaultRanking> named = stored_sweep_ranking(store.value(), summary.value(), std::string("hfu"));
    QVERIFY(named);
    QCOMPARE(named.value().metric.column, std::string_view("hfu"));
}

void TestStoredResults::aResumedSweepCountsWhatItHoldsAndKeepsTheBest() {
    QTemporaryDir folder;
    Expected<ResultStore> store = ResultStore::open((folder.path() + "/r.db").toStdString(),
                                                    ResultStore::Access::read_write);
    QVERIFY(store);
    TinySweep tiny;
    Expected<SweepSpace> space = SweepSpace::of(tiny.record.axes);
    QVERIFY(space);
    const SweepPlan plan{tiny.record.name, tiny.record.base_yaml, ".", std::move(space).value(), std::nullopt};
    QCOMPARE(sweep_record(plan).point_count, std::uint64_t{3});

    SweepOptions options;
    const Expected<StoredSweepStart> first = start_stored_sweep(store.value(), plan, options);
    QVERIFY(first);
    QCOMPARE(first.value().in_shard, std::uint64_t{3});
    QCOMPARE(first.value().stored_in_shard, std::uint64_t{0});

    // An observer that never stops: points 0 and 1 arrive in two batches; the best iteration so far follows them.
    struct Observer final : StoringSweepObserver {
        using StoringSweepObserver::StoringSweepObserver;
        bool cancelled() const override { return false; }
        void batch_stored() override { ++batches; }
        int batches = 0;
    } observer(store.value(), first.value().sweep_id, RankingMetric{"iteration_time_s"});
    const std::vector<PointResult> batch0{tiny.point(0, PointStatus::ok)};
    const std::vector<PointResult> batch1{tiny.point(1, PointStatus::ok)};
    QVERIFY(!observer.points_done(batch0));
    QCOMPARE(observer.best().value(), 0.3);
    QVERIFY(!observer.points_done(batch1));
    QCOMPARE(observer.best().value(), 0.1);
    QCOMPARE(observer.best_values().front().value, std::string("2"));
    QCOMPARE(observer.stored_now(), std::uint64_t{2});
    QCOMPARE(observer.batches, 2);

    // Started again as the second of two shards (points 1, 3, …: here point 1 alone), which is stored already.
    SweepOptions second_shard;
    second_shard.shard = Shard{1, 2};
    const Expected<StoredSweepStart> again = start_stored_sweep(store.value(), plan, second_shard);
    QVERIFY(again);
    QCOMPARE(again.value().sweep_id, first.value().sweep_id);
    QCOMPARE(again.value().in_shard, std::uint64_t{1});
    QCOMPARE(again.value().stored_in_shard, std::uint64_t{1});
    QCOMPARE(second_shard.done, (std::vector<std::uint64_t>{0, 1}));
}

// A sweep of the small pipeline over tp × micro-batch (4 points), run for half its points (shard 1 of 2), then
// planned again from what the store holds: the same key, so starting it finds its sweep and the two points it holds;
// a sweep computed by another core version is refused.
void TestStoredResults::aStoredSweepIsPlannedAgainToResume() {
    QTemporaryDir folder;
    Expected<ResultStore> store = ResultStore::open(folder.filePath("r.db").toStdString(), ResultStore::Access::read_write);
    QVERIFY(store);
    const std::optional<std::int64_t> sweep = testing::store_half_a_sweep(store.value());
    QVERIFY(sweep);
    QCOMPARE(store.value().stored_points(*sweep).value(), (std::vector<std::uint64_t>{0, 2}));

    const Expected<SweepPlan> again = stored_sweep_plan(store.value(), *sweep);
    QVERIFY2(again, again ? "" : again.error().c_str());
    QCOMPARE(again.value().space.point_count(), std::uint64_t{4});
    SweepOptions all;
    const auto resumed = start_stored_sweep(store.value(), again.value(), all);
    QVERIFY(resumed);
    QCOMPARE(resumed.value().sweep_id, *sweep);
    QCOMPARE(resumed.value().stored_in_shard, std::uint64_t{2});
    QCOMPARE(all.done, (std::vector<std::uint64_t>{0, 2}));

    QCOMPARE(stored_sweep_plan(store.value(), 9).error(), std::string("holds no sweep 9"));

    sqlite3* client = nullptr;
    QCOMPARE(sqlite3_open(folder.filePath("r.db").toUtf8().constData(), &client), SQLITE_OK);
    QCOMPARE(sqlite3_exec(client, "UPDATE sweeps SET core_version = '0.0.9'", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(client);
    QCOMPARE(stored_sweep_plan(store.value(), *sweep).error(),
             std::string("sweep 1 was computed by ParaSight 0.0.9; this is " PARASIGHT_VERSION
                         ", whose points would be another sweep's: run it anew"));
}

QTEST_GUILESS_MAIN(TestStoredResults)
#include "test_stored_results.moc"
