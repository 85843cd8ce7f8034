// A filter bar's text over a sweep's points (store/point_filter.h): each clause's SQL worked out by hand, every
// mistake located at its column, and the count of points a filter lets through on a stored sweep.

#include "store/point_filter.h"

#include "store/result_store.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace parasight;

namespace {

const std::vector<std::string> axes{"parallelism.tp", "parallelism.pp", "cluster.topology[1].bandwidth"};

}  // namespace

class TestPointFilter : public QObject {
    Q_OBJECT
private slots:
    void clausesBecomeSql_data();
    void clausesBecomeSql();
    void mistakesAreLocated_data();
    void mistakesAreLocated();
    void countsTheStoredPointsLetThrough();
};

void TestPointFilter::clausesBecomeSql_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("where");
    QTest::newRow("nothing") << "  " << "";
    QTest::newRow("fits") << "fits" << "status = 'ok'";
    // `pp` is the last part of one axis only; `<=` is read whole, not as `<` then `=`.
    QTest::newRow("short axis name") << "pp <= 8" << "\"parallelism.pp\" <= 8";
    QTest::newRow("full path, and") << "parallelism.tp=2 AND mfu > 0.5"
                                    << "\"parallelism.tp\" = 2 AND \"mfu\" > 0.5";
    QTest::newRow("commas, ==") << "fits, tp == 4" << "status = 'ok' AND \"parallelism.tp\" = 4";
    // A size in its unit: 40 GiB = 40 × 2^30 = 42949672960 bytes; a time: 20 ms = 0.02 s.
    QTest::newRow("a size") << "peak_memory_bytes < 40 GiB" << "\"peak_memory_bytes\" < 42949672960";
    QTest::newRow("a time") << "iteration_time_s>=20 ms" << "\"iteration_time_s\" >= 0.02";
    // A share is its expression; a word is text, quoted (and a quote in it doubled).
    QTest::newRow("a share") << "bubble_share < 0.1" << "(bubble_s / iteration_time_s) < 0.1";
    QTest::newRow("a text axis") << "bandwidth != 100 GB/s" << "\"cluster.topology[1].bandwidth\" != '100 GB/s'";
    QTest::newRow("a quote") << "status = it's" << "\"status\" = 'it''s'";
}

void TestPointFilter::clausesBecomeSql() {
    QFETCH(QString, text);
    QFETCH(QString, where);
    const auto filter = parse_point_filter(text.toStdString(), axes);
    QVERIFY2(filter, filter ? "" : filter.error().located().c_str());
    QCOMPARE(QString::fromStdString(filter.value().where), where);
}

void TestPointFilter::mistakesAreLocated_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown name") << "fits, ppp < 4"
                                  << "filter:1:7: unknown name 'ppp' (did you mean 'pp'?); a condition names an axis "
                                     "or a result column";
    QTest::newRow("no operator") << "tp 4"
                                 << "filter:1:1: 'tp 4' is no condition: write fits, or NAME OP VALUE with OP one of < "
                                    "<= > >= = !=";
    QTest::newRow("no value") << "tp <" << "filter:1:5: a value follows <";
    QTest::newRow("no name") << " = 4" << "filter:1:2: a condition names what it compares before =";
    QTest::newRow("empty clause") << "fits,,tp=1" << "filter:1:6: an empty clause: write a condition between the commas";
    QTest::newRow("not finite") << "mfu > inf" << "filter:1:7: a value is a finite number";
}

void TestPointFilter::mistakesAreLocated() {
    QFETCH(QString, text);
    QFETCH(QString, message);
    const auto filter = parse_point_filter(text.toStdString(), axes);
    QVERIFY(!filter);
    QCOMPARE(QString::fromStdString(filter.error().located()), message);
}

// tp ∈ {1, 2} × pp ∈ {1, 2, 4}: every point fits but tp 2 · pp 4 (out of memory, estimated); iteration = tp + pp s.
void TestPointFilter::countsTheStoredPointsLetThrough() {
    QTemporaryDir folder;
    Expected<ResultStore> store = ResultStore::open(folder.filePath("r.db").toStdString(), ResultStore::Access::read_write);
    QVERIFY(store);
    const SweepRecord record{"f", "schema: 1\nname: f\n", {{"parallelism.tp", {"1", "2"}}, {"parallelism.pp", {"1", "2", "4"}}}, 6};
    const Expected<std::int64_t> id = store.value().open_sweep(record);
    QVERIFY(id);
    std::vector<PointResult> points;
    for (std::uint64_t k = 0; k < 6; ++k) {
        PointResult point;
        point.point = k;
        const int tp = 1 + static_cast<int>(k / 3);
        const int pp = 1 << (k % 3);
        point.values = {{"parallelism.tp", std::to_string(tp)}, {"parallelism.pp", std::to_string(pp)}};
        point.scenario_yaml = "# " + std::to_string(k) + "\n";
        if (k == 5) {
            point.status = PointStatus::oom_estimated;
            point.memory_estimate = MemoryEstimate{9e10, 8e10};
        } else {
            Report report;
            report.iteration_time_s = tp + pp;
            report.mode = "representative";
            point.report = report;
        }
        points.push_back(point);
    }
    QVERIFY(!store.value().add_points(id.value(), points));
    const std::vector<std::string> paths{"parallelism.tp", "parallelism.pp"};
    const auto count = [&](const char* text) {
        return store.value().count_sweep_points(id.value(), parse_point_filter(text, paths).value().where).value();
    };
    QCOMPARE(count(""), std::int64_t{6});
    QCOMPARE(count("fits"), std::int64_t{5});
    QCOMPARE(count("pp <= 2"), std::int64_t{4});
    // Fitting with an iteration under 4 s: (1,1) 2 s, (1,2) 3 s, (2,1) 3 s.
    QCOMPARE(count("fits and iteration_time_s < 4 s"), std::int64_t{3});
    // A page of them, best first: the second and third of the fitting points by time.
    struct Points final : RowVisitor {
        int point = -1;
        std::vector<std::int64_t> read;
        void columns(const std::vector<std::string>& names) override {
            point = static_cast<int>(std::find(names.begin(), names.end(), "point") - names.begin());
        }
        void row(const std::vector<StoredValue>& values) override { read.push_back(std::get<std::int64_t>(values[point])); }
    } page;
    QVERIFY(!store.value().read_sweep(id.value(), page, "status = 'ok'", "iteration_time_s", 2, 1));
    QCOMPARE(page.read, (std::vector<std::int64_t>{1, 3}));  // 3 s each, in point order; point 0 (2 s) skipped
}

QTEST_GUILESS_MAIN(TestPointFilter)
#include "test_point_filter.moc"
