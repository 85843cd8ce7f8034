// parasight-cli sweep, merge and runs end to end, with the database read back through the SQLite C library as
// any client would. The sweeps run on tests/data/cli/small_pipeline.yaml (a 4-layer transformer, pp 2 on 8 NPUs,
// global batch 16) with dp derived:
//   tp ∈ {1, 2, 4} × micro-batch ∈ {1, 2, 3} × outer-switch bandwidth ∈ {25, 50, 75, 100} GB/s = 36 points; with
//   micro-batch 3 the 16 sequences do not split into replicas × micro-batches (invalid: 3 × 4 = 12 points), the
//   other 24 are simulated and fit in 80 GiB.

#include "cli_runner.h"

#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>
#include <signal.h>

using namespace parasight::testing;

namespace {

const QStringList thirty_six_points{"--axis", "parallelism.dp=auto",
                                    "--axis", "parallelism.tp=1,2,4",
                                    "--axis", "training.micro_batch=1,2,3",
                                    "--axis", "cluster.topology[1].bandwidth=25..100 GB/s +25 GB/s"};

QStringList sweep_of(const QStringList& axes, const QString& database, const QStringList& more = {}) {
    return QStringList{"sweep", data_path("cli/small_pipeline.yaml")} + axes + QStringList{"--db", database} + more;
}

// Every row of `sql` on `path`, columns joined by '|', NULL as "NULL".
QStringList query(const QString& path, const QString& sql) {
    QStringList rows;
    sqlite3* handle = nullptr;
    if (sqlite3_open_v2(path.toUtf8().constData(), &handle, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        sqlite3_close_v2(handle);
        return {"cannot open"};
    }
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(handle, sql.toUtf8().constData(), -1, &statement, nullptr) != SQLITE_OK) {
        rows << QString("error: ") + sqlite3_errmsg(handle);
    } else {
        while (sqlite3_step(statement) == SQLITE_ROW) {
            QStringList row;
            for (int c = 0; c < sqlite3_column_count(statement); ++c) {
                const auto* text = sqlite3_column_text(statement, c);
                row << (text != nullptr ? QString::fromUtf8(reinterpret_cast<const char*>(text)) : "NULL");
            }
            rows << row.join('|');
        }
    }
    sqlite3_finalize(statement);
    sqlite3_close_v2(handle);
    return rows;
}

// What a sweep's points say, but when and how fast they ran (created_at, wall_s, run ids).
QStringList point_results(const QString& path, int sweep = 1) {
    return query(path, QString("SELECT point, \"parallelism.tp\", \"training.micro_batch\", "
                               "\"cluster.topology[1].bandwidth\", status, reason, scenario_hash, iteration_time_s, "
                               "mfu, peak_memory_bytes, bubble_s, exposed_pp_s, events, warnings FROM sweep_%1 "
                               "ORDER BY point")
                           .arg(sweep));
}

QStringList bandwidth_axis(int points) {
    return {"--axis", QString("cluster.topology[1].bandwidth=1..%1 GB/s +1 GB/s").arg(points)};
}

// The database is whole, every point once, every run belongs to a point.
void check_consistent(const QString& database) {
    QCOMPARE(query(database, "PRAGMA integrity_check"), QStringList{"ok"});
    QCOMPARE(query(database, "SELECT count(*) FROM (SELECT point FROM sweep_points GROUP BY sweep_id, point "
                             "HAVING count(*) > 1)"),
             QStringList{"0"});
    QCOMPARE(query(database, "SELECT count(*) FROM runs WHERE id NOT IN (SELECT run_id FROM sweep_points)"),
             QStringList{"0"});
    QCOMPARE(query(database, "SELECT count(*) FROM sweep_points p WHERE (SELECT count(*) FROM sweep_point_values v "
                             "WHERE v.sweep_id = p.sweep_id AND v.point = p.point) != (SELECT count(*) FROM "
                             "sweep_axes a WHERE a.sweep_id = p.sweep_id)"),
             QStringList{"0"});
}

}  // namespace

class TestCliSweep : public QObject {
    Q_OBJECT
private slots:
    void aSweepStoresEveryPointWithItsOutcome();
    void runningItAgainRunsNothingTwice();
    void theResultsAreTheSameForAnyNumberOfJobs();
    void zippedAxesGoTogether();
    void aProcessKilledAtAnyMomentLeavesAWholeDatabase();
    void anInterruptedSweepStoresWhatFinishedAndResumes();
    void shardsMergedEqualOneRun();
    void runsListsShowsExportsAndCompares();
    void aFilesSweepSectionAndTheStrategySpace();
    void simulateStoresItsRun();
    void badInputIsRefusedWithWhy_data();
    void badInputIsRefusedWithWhy();
    void aDatabaseThatIsNotOursIsLeftAlone();
    void aPointIsStoredUnderANameThatIsTrue();
    void anAxisThatChangesTheWorkIsRankedByThroughput();
    void theSummarySaysWhatItLists_data();
    void theSummarySaysWhatItLists();
};

void TestCliSweep::theSummarySaysWhatItLists_data() {
    QTest::addColumn<QStringList>("axes");
    QTest::addColumn<QString>("top");
    QTest::addColumn<QString>("said");      // a line the summary has
    QTest::addColumn<QString>("not_said");  // a line it must not have
    const QString none = "no point that fits has been simulated yet";
    // 2 of the 3 micro-batch sizes divide the batch: two points simulated, one refused.
    const QStringList some{"--axis", "training.micro_batch=1,2,3"};
    QTest::newRow("points simulated, the best two listed") << some << "2" << "best 2 by iteration_time_s" << none;
    // --top 0 lists none: it must not say that no point was simulated when two were.
    QTest::newRow("points simulated, --top 0") << some << "0" << "ok 2 oom 0 oom_estimated 0 invalid 1 failed 0"
                                               << none;
    QTest::newRow("no point simulated") << QStringList{"--axis", "training.micro_batch=3"} << "5" << none
                                        << "best";
}

void TestCliSweep::theSummarySaysWhatItLists() {
    QFETCH(QStringList, axes);
    QFETCH(QString, top);
    QFETCH(QString, said);
    QFETCH(QString, not_said);
    QTemporaryDir folder;
    RUN_CLI(run, sweep_of(axes, folder.filePath("results.db"), {"--top", top, "--quiet"}));
    EXPECT_EXIT(run, 0);
    const QString out = QString::fromUtf8(run.out_bytes);
    QVERIFY2(out.contains(said), qPrintable(out));
    QVERIFY2(!out.contains(not_said), qPrintable(out));
}

void TestCliSweep::aSweepStoresEveryPointWithItsOutcome() {
    QTemporaryDir folder;
    const QString database = folder.filePath("results.db");
    RUN_CLI(run, sweep_of(thirty_six_points, database, {"--json", "--top", "3"}));
    EXPECT_EXIT(run, 0);
    const QJsonObject json = QJsonDocument::fromJson(run.out_bytes).object();
    QCOMPARE(json["points"].toInt(), 36);
    QCOMPARE(json["stored"].toInt(), 36);
    QCOMPARE(json["run_now"].toInt(), 36);
    QCOMPARE(json["stored_before"].toInt(), 0);
    QCOMPARE(json["interrupted"].toBool(), false);
    QCOMPARE(json["by_status"].toObject()["ok"].toInt(), 24);
    QCOMPARE(json["by_status"].toObject()["invalid"].toInt(), 12);
    // The best three by iteration time, fastest first, all from the simulated points.
    const QJsonArray top = json["top"].toArray();
    QCOMPARE(top.size(), 3);
    double previous = 0.0;
    for (const QJsonValue& entry : top) {
        const double time = entry.toObject()["iteration_time_s"].toDouble();
        QVERIFY(time >= previous);
        previous = time;
        QVERIFY(entry.toObject()["values"].toObject()["training.micro_batch"].toInt() != 3);
    }
    // The fastest point beats every other simulated one in the database.
    QCOMPARE(query(database, "SELECT min(iteration_time_s) = (SELECT iteration_time_s FROM sweep_1 WHERE point = " +
                                 QString::number(top[0].toObject()["point"].toInt()) + ") FROM runs"),
             QStringList{"1"});
    check_consistent(database);
    QCOMPARE(query(database, "SELECT count(*) FROM sweep_1 WHERE status = 'invalid' AND \"training.micro_batch\" = 3 "
                             "AND reason LIKE 'training.global_batch: global_batch 16 is not divisible by dp x "
                             "micro_batch%'"),
             QStringList{"12"});
    // The progress reached the end on standard error.
    QVERIFY2(run.err.contains("36/36 points"), qPrintable(run.err));
}

void TestCliSweep::runningItAgainRunsNothingTwice() {
    QTemporaryDir folder;
    const QString database = folder.filePath("results.db");
    RUN_CLI(first, sweep_of(thirty_six_points, database, {"--json"}));
    EXPECT_EXIT(first, 0);
    const QStringList before = point_results(database);
    RUN_CLI(again, sweep_of(thirty_six_points, database, {"--json"}));
    EXPECT_EXIT(again, 0);
    const QJsonObject json = QJsonDocument::fromJson(again.out_bytes).object();
    QCOMPARE(json["run_now"].toInt(), 0);
    QCOMPARE(json["stored_before"].toInt(), 36);
    QCOMPARE(query(database, "SELECT count(*) FROM runs"), QStringList{"36"});
    QCOMPARE(point_results(database), before);
    // Another value on an axis is another sweep, beside the first.
    QStringList more = thirty_six_points;
    more[3] = "parallelism.tp=1,2,4,8";
    RUN_CLI(other, sweep_of(more, database, {"--json"}));
    EXPECT_EXIT(other, 0);
    QCOMPARE(QJsonDocument::fromJson(other.out_bytes).object()["sweep_id"].toInt(), 2);
    QCOMPARE(query(database, "SELECT count(*) FROM sweeps"), QStringList{"2"});
}

void TestCliSweep::theResultsAreTheSameForAnyNumberOfJobs() {
    QTemporaryDir folder;
    const QString one = folder.filePath("one.db");
    const QString two = folder.filePath("two.db");
    RUN_CLI(serial, sweep_of(thirty_six_points, one, {"--jobs", "1"}));
    EXPECT_EXIT(serial, 0);
    RUN_CLI(parallel, sweep_of(thirty_six_points, two, {"--jobs", "2"}));
    EXPECT_EXIT(parallel, 0);
    const QStringList results = point_results(one);
    QCOMPARE(results.size(), 36);
    QCOMPARE(point_results(two), results);
}

void TestCliSweep::zippedAxesGoTogether() {
    QTemporaryDir folder;
    const QString database = folder.filePath("results.db");
    // Recompute and sequence parallelism zipped: 2 points, not 4; × 2 schedules = 4.
    RUN_CLI(run, sweep_of({"--axis", "parallelism.recompute=full,selective & parallelism.sequence_parallel=false,true",
                           "--axis", "parallelism.schedule=1f1b,gpipe"},
                          database, {"--json"}));
    EXPECT_EXIT(run, 0);
    QCOMPARE(QJsonDocument::fromJson(run.out_bytes).object()["points"].toInt(), 4);
    QCOMPARE(query(database, "SELECT point, \"parallelism.recompute\", \"parallelism.sequence_parallel\", "
                             "\"parallelism.schedule\", status FROM sweep_1 ORDER BY point"),
             (QStringList{"0|full|false|1f1b|ok", "1|full|false|gpipe|ok", "2|selective|true|1f1b|ok",
                          "3|selective|true|gpipe|ok"}));
    QCOMPARE(query(database, "SELECT path, zipped_with_previous FROM sweep_axes ORDER BY position"),
             (QStringList{"parallelism.recompute|0", "parallelism.sequence_parallel|1", "parallelism.schedule|0"}));
}

void TestCliSweep::aProcessKilledAtAnyMomentLeavesAWholeDatabase() {
    // 3000 points (about 2 s on two threads); killed with SIGKILL at six moments drawn from a fixed seed, each time
    // resumed from what the last one left. The database is whole after every kill; the last run completes it.
    QTemporaryDir folder;
    const QString database = folder.filePath("results.db");
    const QStringList arguments = sweep_of(bandwidth_axis(3000), database, {"--jobs", "2", "--quiet"});
    QRandomGenerator random(20261123);
    qint64 stored_before = 0;
    for (int kill = 0; kill < 6; ++kill) {
        QProcess process;
        process.start(QString::fromUtf8(PARASIGHT_CLI_PATH), arguments);
        QVERIFY(process.waitForStarted());
        QTest::qWait(static_cast<int>(random.bounded(30, 600)));
        process.kill();
        process.waitForFinished();
        if (!QFile::exists(database)) continue;  // killed before the database was made
        check_consistent(database);
        const qint64 stored = query(database, "SELECT count(*) FROM sweep_points").value(0).toLongLong();
        QVERIFY(stored >= stored_before);
        stored_before = stored;
    }
    RUN_CLI(finish, QStringList(arguments) << "--json");
    EXPECT_EXIT(finish, 0);
    const QJsonObject json = QJsonDocument::fromJson(finish.out_bytes).object();
    QCOMPARE(json["stored_before"].toInt(), static_cast<int>(stored_before));
    QCOMPARE(json["stored"].toInt(), 3000);
    check_consistent(database);
    QCOMPARE(query(database, "SELECT count(*), count(DISTINCT point), min(point), max(point) FROM sweep_points"),
             QStringList{"3000|3000|0|2999"});
}

void TestCliSweep::anInterruptedSweepStoresWhatFinishedAndResumes() {
    QTemporaryDir folder;
    const QString database = folder.filePath("results.db");
    const QStringList arguments = sweep_of(bandwidth_axis(3000), database, {"--jobs", "1", "--json"});
    QProcess process;
    process.start(QString::fromUtf8(PARASIGHT_CLI_PATH), arguments);
    QVERIFY(process.waitForStarted());
    // Interrupted once it runs, its first points stored and so its handler in place: a signal while it still reads
    // and plans ends it as the signal's default does (a fixed 400 ms wait reached that on a loaded machine).
    QTRY_VERIFY_WITH_TIMEOUT(
        QFile::exists(database) && query(database, "SELECT count(*) FROM sweep_points").value(0).toInt() > 0, 30000);
    ::kill(static_cast<pid_t>(process.processId()), SIGINT);
    QVERIFY(process.waitForFinished(10'000));
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 130);
    const QString err = QString::fromUtf8(process.readAllStandardError());
    QVERIFY2(err.contains("interrupted;") && err.contains("Run the same command again to resume"), qPrintable(err));
    const QJsonObject json = QJsonDocument::fromJson(process.readAllStandardOutput()).object();
    QCOMPARE(json["interrupted"].toBool(), true);
    const int stored = json["stored"].toInt();
    QVERIFY(stored > 0 && stored < 3000);
    QCOMPARE(query(database, "SELECT count(*) FROM sweep_points"), QStringList{QString::number(stored)});
    RUN_CLI(resumed, arguments);
    EXPECT_EXIT(resumed, 0);
    const QJsonObject done = QJsonDocument::fromJson(resumed.out_bytes).object();
    QCOMPARE(done["stored_before"].toInt(), stored);
    QCOMPARE(done["run_now"].toInt(), 3000 - stored);
    check_consistent(database);
}

void TestCliSweep::shardsMergedEqualOneRun() {
    QTemporaryDir folder;
    const QString whole = folder.filePath("whole.db");
    RUN_CLI(single, sweep_of(thirty_six_points, whole));
    EXPECT_EXIT(single, 0);
    QStringList shards;
    for (int k = 1; k <= 3; ++k) {
        shards << folder.filePath(QString("shard%1.db").arg(k));
        RUN_CLI(shard, sweep_of(thirty_six_points, shards.last(), {"--shard", QString("%1/3").arg(k), "--json"}));
        EXPECT_EXIT(shard, 0);
        QCOMPARE(QJsonDocument::fromJson(shard.out_bytes).object()["stored"].toInt(), 12);  // points k-1, k+2, …
        QCOMPARE(query(shards.last(),
                       "SELECT count(*) FROM sweep_points WHERE point % 3 != " + QString::number(k - 1)),
                 QStringList{"0"});
    }
    const QString merged = folder.filePath("merged.db");
    RUN_CLI(merge, QStringList{"merge", merged} + shards);
    EXPECT_EXIT(merge, 0);
    QVERIFY2(merge.out.contains("sweep 1 'CLI small pipeline, 2 x 4 NPUs': 36 of 36 points"), qPrintable(merge.out));
    QCOMPARE(point_results(merged), point_results(whole));
    // Merging again adds nothing.
    RUN_CLI(again, QStringList{"merge", merged} + shards);
    EXPECT_EXIT(again, 0);
    QCOMPARE(query(merged, "SELECT count(*) FROM runs"), QStringList{"36"});
    check_consistent(merged);
}

void TestCliSweep::runsListsShowsExportsAndCompares() {
    QTemporaryDir folder;
    const QString database = folder.filePath("results.db");
    RUN_CLI(sweep, sweep_of(thirty_six_points, database));
    EXPECT_EXIT(sweep, 0);

    RUN_CLI(list, {"runs", "list", "--db", database});
    EXPECT_EXIT(list, 0);
    QVERIFY2(list.out.contains("sweep:1") && list.out.contains("36/36 points, 24 ok, 12 invalid"),
             qPrintable(list.out));

    RUN_CLI(show, {"runs", "show", "sweep:1", "--db", database, "--top", "2"});
    EXPECT_EXIT(show, 0);
    QVERIFY2(show.out.contains("best 2 by iteration_time_s:"), qPrintable(show.out));

    // CSV: a header and a line per point; the axis values and metrics as stored.
    const QString csv = folder.filePath("points.csv");
    RUN_CLI(exported, {"runs", "export", "sweep:1", "--db", database, "--out", csv});
    EXPECT_EXIT(exported, 0);
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 37);
    QVERIFY2(lines[0].startsWith("point,parallelism.dp,parallelism.tp,training.micro_batch,"
                                 "cluster.topology[1].bandwidth,run_id,scenario_hash,status,reason"),
             qPrintable(lines[0]));
    QVERIFY2(lines[1].startsWith("0,auto,1,1,25 GB/s,"), qPrintable(lines[1]));

    RUN_CLI(json, {"runs", "export", "sweep:1", "--db", database, "--format", "json"});
    EXPECT_EXIT(json, 0);
    const QJsonArray rows = QJsonDocument::fromJson(json.out_bytes).array();
    QCOMPARE(rows.size(), 36);
    QCOMPARE(rows[35].toObject()["parallelism.tp"].toInt(), 4);
    QCOMPARE(rows[35].toObject()["status"].toString(), QString("invalid"));

    // Points 0 and 1 differ only in the outer switch (25 → 50 GB/s): the same FLOPs, a shorter iteration.
    const QStringList runs = query(database, "SELECT run_id FROM sweep_1 WHERE point < 2 ORDER BY point");
    QCOMPARE(runs.size(), 2);
    RUN_CLI(compare, {"runs", "compare", "run:" + runs[0], "run:" + runs[1], "--db", database, "--json"});
    EXPECT_EXIT(compare, 0);
    const QJsonObject metrics = QJsonDocument::fromJson(compare.out_bytes).object()["metrics"].toObject();
    QCOMPARE(metrics["model_flops_per_iteration"].toObject()["difference"].toDouble(), 0.0);
    QVERIFY(metrics["iteration_time_s"].toObject()["difference"].toDouble() < 0.0);
    // Which input differs, and nothing else: compare did not say (the scenarios are stored with the runs).
    const QJsonArray inputs = QJsonDocument::fromJson(compare.out_bytes).object()["inputs"].toArray();
    QCOMPARE(inputs.size(), 1);
    QCOMPARE(inputs[0].toObject()["path"].toString(), QString("cluster.topology[1].bandwidth"));
    QCOMPARE(inputs[0].toObject()["a"].toString(), QString("25 GB/s"));
    QCOMPARE(inputs[0].toObject()["b"].toString(), QString("50 GB/s"));
    // In words: the input first, then each metric with its unit (the iteration's seconds were bare numbers).
    RUN_CLI(words, {"runs", "compare", "run:" + runs[0], "run:" + runs[1], "--db", database});
    EXPECT_EXIT(words, 0);
    QVERIFY2(words.out.startsWith("inputs that differ (run:" + runs[0] + " → run:" + runs[1] + "):\n"
                                  "  cluster.topology[1].bandwidth  25 GB/s → 50 GB/s\n"),
             qPrintable(words.out));
    static const QRegularExpression iteration_line(
        "\niteration_time_s +[0-9.]+ (us|ms) +[0-9.]+ (us|ms) +-[0-9.]+ (ns|us|ms) +0\\.[0-9]{3}\n");
    QVERIFY2(iteration_line.match(words.out).hasMatch(), qPrintable(words.out));
    QVERIFY2(words.out.contains(QRegularExpression("\npeak_memory_bytes +[0-9.]+ GiB +[0-9.]+ GiB +0 B +1\\.000\n")),
             qPrintable(words.out));

    RUN_CLI(missing, {"runs", "show", "sweep:7", "--db", database});
    EXPECT_EXIT(missing, 2);
    QVERIFY2(missing.err.contains("holds no sweep 7"), qPrintable(missing.err));
    const QString nowhere = folder.filePath("nowhere.db");
    RUN_CLI(absent, {"runs", "list", "--db", nowhere});
    EXPECT_EXIT(absent, 2);
    QVERIFY2(absent.err.contains("'" + nowhere + "' does not exist: nothing has been stored there yet"),
             qPrintable(absent.err));
    QVERIFY(!QFile::exists(nowhere));  // reading makes nothing
}

void TestCliSweep::aFilesSweepSectionAndTheStrategySpace() {
    QTemporaryDir folder;
    const QString database = folder.filePath("results.db");
    RUN_CLI(section, {"sweep", data_path("cli/sweep_section.yaml"), "--db", database, "--json"});
    EXPECT_EXIT(section, 0);
    QCOMPARE(QJsonDocument::fromJson(section.out_bytes).object()["points"].toInt(), 6);
    QCOMPARE(query(database, "SELECT point, \"parallelism.tp\", \"training.micro_batch\", "
                             "\"cluster.topology[1].bandwidth\", status FROM sweep_1 ORDER BY point"),
             (QStringList{"0|1|1|25 GB/s|ok", "1|1|1|50 GB/s|ok", "2|2|2|25 GB/s|ok", "3|2|2|50 GB/s|ok",
                          "4|4|4|25 GB/s|ok", "5|4|4|50 GB/s|ok"}));
    // The nine layouts of 8 NPUs that fit 8 heads and 4 layers (test_strategy_space counts them), after an axis.
    RUN_CLI(degrees, sweep_of({"--axis", "cluster.topology[1].bandwidth=25 GB/s,50 GB/s", "--strategies", "degrees"},
                              database, {"--json"}));
    EXPECT_EXIT(degrees, 0);
    QCOMPARE(QJsonDocument::fromJson(degrees.out_bytes).object()["points"].toInt(), 18);
    QCOMPARE(query(database, "SELECT count(*), sum(status = 'ok') FROM sweep_2"), QStringList{"18|18"});
    QCOMPARE(query(database, "SELECT count(*) FROM sweep_2 WHERE \"parallelism.tp\" * \"parallelism.pp\" * "
                             "\"parallelism.dp\" != 8"),
             QStringList{"0"});

    // A mistake in the section, at its place in the file.
    const QString broken = folder.filePath("broken.yaml");
    QFile original(data_path("cli/sweep_section.yaml"));
    QVERIFY(original.open(QIODevice::ReadOnly));
    QVERIFY(write_file(broken, original.readAll().replace("training.micro_batch: [1, 2, 4]",
                                                          "training.micro_batch: [1, 2]")));
    RUN_CLI(bad, {"sweep", broken, "--db", database});
    EXPECT_EXIT(bad, 2);
    QVERIFY2(bad.err.contains(broken + ":18:57: zipped axes take their values together, so each needs as many: "
                                       "parallelism.tp has 3, training.micro_batch has 2"),
             qPrintable(bad.err));
}

void TestCliSweep::simulateStoresItsRun() {
    QTemporaryDir folder;
    const QString database = folder.filePath("results.db");
    RUN_CLI(text, {"simulate", data_path("cli/small_pipeline.yaml"), "--db", database});
    EXPECT_EXIT(text, 0);
    QVERIFY2(text.out.contains("stored as run:1 in '" + database + "'"), qPrintable(text.out));
    RUN_CLI(json, {"simulate", data_path("cli/small_pipeline.yaml"), "--db", database, "--json"});
    EXPECT_EXIT(json, 0);
    const QJsonObject report = QJsonDocument::fromJson(json.out_bytes).object();
    // The stored columns are the report's numbers, exactly (SQLite keeps doubles as 64-bit reals).
    const QStringList stored = query(database, "SELECT id, status, iteration_time_s, mfu, peak_memory_bytes, events "
                                               "FROM runs WHERE id = 2");
    QCOMPARE(stored.size(), 1);
    const QStringList columns = stored[0].split('|');
    QCOMPARE(columns[1], QString("ok"));
    QCOMPARE(columns[2].toDouble(), report["iteration_time_s"].toDouble());
    QCOMPARE(columns[3].toDouble(), report["mfu"].toDouble());
    QCOMPARE(columns[4].toDouble(), report["memory"].toObject()["peak_bytes"].toDouble());
    QCOMPARE(columns[5].toLongLong(), report["simulation"].toObject()["events"].toInteger());
    RUN_CLI(list, {"runs", "list", "--db", database});
    EXPECT_EXIT(list, 0);
    QVERIFY2(list.out.contains("run:1") && list.out.contains("run:2") && list.out.contains("'CLI small pipeline"),
             qPrintable(list.out));
}

void TestCliSweep::badInputIsRefusedWithWhy_data() {
    QTest::addColumn<QStringList>("arguments");  // after the scenario file
    QTest::addColumn<QString>("message");
    QTest::newRow("a path the scenario lacks") << QStringList{"--axis", "parallelism.tpp=1,2"}
                                               << "--axis 'parallelism.tpp=1,2': parallelism.tpp: 'parallelism' has "
                                                  "no 'tpp' (did you mean 'tp'?)";
    QTest::newRow("an index past the list") << QStringList{"--axis", "cluster.topology[5].bandwidth=1 GB/s"}
                                            << "'cluster.topology' has 2 entries; there is no [5]";
    QTest::newRow("a range with no end") << QStringList{"--axis", "parallelism.tp=1.. x2"}
                                         << "--axis 'parallelism.tp=1.. x2': parallelism.tp:";
    QTest::newRow("zipped axes of unequal length")
        << QStringList{"--axis", "parallelism.tp=1,2 & parallelism.pp=1,2,4"}
        << "zipped axes take their values together, so each needs as many: parallelism.tp has 2, parallelism.pp "
           "has 3";
    QTest::newRow("no axis") << QStringList{} << "give at least one --axis PATH=VALUES";
    QTest::newRow("a shard past N") << QStringList{"--axis", "parallelism.tp=1", "--shard", "4/3"}
                                    << "--shard: shard 4/3 does not exist: K must be between 1 and N";
    QTest::newRow("zero jobs") << QStringList{"--axis", "parallelism.tp=1", "--jobs", "0"}
                               << "--jobs must be a whole number from 1 to 1024, not '0'";
    QTest::newRow("an unknown metric") << QStringList{"--axis", "parallelism.tp=1", "--metric", "mfuu"}
                                       << "--metric: unknown metric 'mfuu' (did you mean 'mfu'?)";
}

void TestCliSweep::badInputIsRefusedWithWhy() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    QTemporaryDir folder;
    const QString database = folder.filePath("results.db");
    RUN_CLI(run, sweep_of(arguments, database));
    EXPECT_EXIT(run, 2);
    QVERIFY2(run.err.contains(message), qPrintable(run.err));
    QVERIFY(!QFile::exists(database));  // nothing made before the input is known to be good
}

void TestCliSweep::aDatabaseThatIsNotOursIsLeftAlone() {
    QTemporaryDir folder;
    const QString database = folder.filePath("notes.db");
    QVERIFY(write_file(database, "name,value\nsmall,1\n"));
    RUN_CLI(run, sweep_of(thirty_six_points, database));
    EXPECT_EXIT(run, 1);
    QVERIFY2(run.err.contains("is not a SQLite database, so not a ParaSight results database; it is left as it is"),
             qPrintable(run.err));
    QFile file(database);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("name,value\nsmall,1\n"));
    RUN_CLI(merge, {"merge", folder.filePath("out.db"), database});
    EXPECT_EXIT(merge, 1);
    QVERIFY2(merge.err.contains("is not a SQLite database"), qPrintable(merge.err));
}

// The default scenario is "GPT-3 175B on 1024 A100-80GB"; its points with 64 nodes of 8 (512 devices) were stored
// under that name, which the run list then showed. A point whose axes change what the name states is stored under
// a derived one (scenario/scenario_names.h); the others keep the base's.
void TestCliSweep::aPointIsStoredUnderANameThatIsTrue() {
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    const QString database = folder.filePath("names.db");
    RUN_CLI(run, {"sweep", QString(PARASIGHT_SOURCE_DIR) + "/presets/scenarios/default.yaml", "--axis",
                  "cluster.topology[1].size=64,128", "--axis", "parallelism.dp=auto", "--db", database, "--quiet"});
    EXPECT_EXIT(run, 0);
    QCOMPARE(query(database, "SELECT point, scenario_name FROM sweep_1 ORDER BY point"),
             (QStringList{"0|GPT-3 175B on 512 A100-80GB SXM4", "1|GPT-3 175B on 1024 A100-80GB"}));
}

// --top ranked by iteration time although an axis changed the work per iteration: the smallest batch always "won".
// With training.global_batch (16, 32, 64 sequences of 256 tokens) an iteration does 2 and 4 times the work, so the
// points rank by tokens/s, and the summary says why; --metric still chooses.
void TestCliSweep::anAxisThatChangesTheWorkIsRankedByThroughput() {
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    const QString database = folder.filePath("batches.db");
    RUN_CLI(run, sweep_of({"--axis", "training.global_batch=16,32,64"}, database, {"--quiet", "--json"}));
    EXPECT_EXIT(run, 0);
    const QJsonObject json = QJsonDocument::fromJson(run.out_bytes).object();
    QCOMPARE(json["metric"].toString(), QString("tokens_per_s"));
    QCOMPARE(json["metric_reason"].toString(),
             QString("training.global_batch changes the work per iteration, so iteration times do not compare"));
    const QJsonArray top = json["top"].toArray();
    QCOMPARE(top.size(), 3);
    for (int i = 1; i < top.size(); ++i) {
        QVERIFY(top[i - 1].toObject()["tokens_per_s"].toDouble() >= top[i].toObject()["tokens_per_s"].toDouble());
    }
    RUN_CLI(shown, {"runs", "show", "sweep:1", "--db", database});
    EXPECT_EXIT(shown, 0);
    QVERIFY2(shown.out.contains("best 3 by tokens_per_s (training.global_batch changes the work per iteration, so "
                                "iteration times do not compare):\n"),
             qPrintable(shown.out));
    RUN_CLI(asked, {"runs", "show", "sweep:1", "--db", database, "--metric", "iteration_time_s"});
    EXPECT_EXIT(asked, 0);
    QVERIFY2(asked.out.contains("best 3 by iteration_time_s:\n"), qPrintable(asked.out));
}

QTEST_GUILESS_MAIN(TestCliSweep)
#include "test_cli_sweep.moc"
