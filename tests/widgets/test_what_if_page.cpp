// The What-if tab (widgets/whatif/): its three rule tables under QAbstractItemModelTester, every cell written as the
// scenario file writes it and refused with the loader's words; rules added, removed and undone; a problem shown on
// its cell; and the delay sweep run on a worker for tests/data/what_if/bert-dp.yaml, whose numbers
// tests/core/test_what_if.cpp works out by hand:
//
// bert-dp.yaml — 2 data-parallel replicas of a 4-layer BERT, backward B = 2 ms per layer, each layer's gradient
//   all-reduce A = 0.5 ms beside the next layer's backward, T0 = 12.5 ms + e. A delay d on every dp call hides in
//   the window B − A = 1.5 ms except on the last two calls: T = T0 + 2d up to 1.5 ms, then T0 − 4.5 ms + 5d.
//   Swept at 0.5, 1, 2 and 3 ms: the initial slope is 2; 0.5 and 1 ms lie on T0 + 2d; at 2 ms T = T0 + 5.5 ms is
//   1.5 ms above that line, more than 1% of T0 (0.125 ms): the hidden delay is 1 ms; between 2 and 3 ms the slope
//   is 5 (all five calls: four layers' buckets and the embeddings').

#include "document/scenario_document.h"
#include "whatif/what_if_fields.h"
#include "whatif/what_if_page.h"
#include "whatif/what_if_rules_model.h"

#include <QAbstractItemModelTester>
#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace parasight;
using namespace parasight::gui;

Q_DECLARE_METATYPE(parasight::gui::WhatIfList)

namespace {

constexpr double ms = 1e-3;

bool open_bert_dp(ScenarioDocument& document) {
    Diagnostics problems;
    return document.openFile(QStringLiteral(PARASIGHT_TEST_DATA_DIR "/what_if/bert-dp.yaml"), problems);
}

// One rule in each list, as add_what_if_rule makes them.
void add_one_of_each(ScenarioDocument& document) {
    document.edit(QStringLiteral("rules"), QString(), [](Scenario& scenario) {
        for (const WhatIfList list : what_if_lists) add_what_if_rule(scenario, list);
    });
}

// The series drawn with a visible point label: the knee's.
QStringList point_labels(const QChart& chart) {
    QStringList labels;
    for (QAbstractSeries* series : chart.series()) {
        auto* scatter = qobject_cast<QScatterSeries*>(series);
        if (scatter != nullptr && scatter->pointLabelsVisible()) labels << scatter->pointLabelsFormat();
    }
    return labels;
}

const QLineSeries* series_named(const QChart& chart, const QString& name) {
    for (QAbstractSeries* series : chart.series()) {
        if (series->name() == name) return qobject_cast<QLineSeries*>(series);
    }
    return nullptr;
}

}  // namespace

class TestWhatIfPage : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void modelsPassTheTester();
    void cellsReadAndWriteAsTheFileDoes_data();
    void cellsReadAndWriteAsTheFileDoes();
    void unreadableTextIsRefused_data();
    void unreadableTextIsRefused();
    void rulesAreAddedRemovedAndUndone();
    void problemShowsOnItsCell();
    void sweepFindsTheKneeOfTheOverlapWindow();
    void sweepControlsThatCannotBeReadSayWhy_data();
    void sweepControlsThatCannotBeReadSayWhy();
    void sweepOfAnOlderScenarioIsGreyed();
};

void TestWhatIfPage::modelsPassTheTester() {
    ScenarioDocument document;
    QVERIFY(open_bert_dp(document));
    for (const WhatIfList list : what_if_lists) {
        WhatIfRulesModel model(document, list);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        add_one_of_each(document);  // rows inserted through a reset
        QCOMPARE(model.rowCount(), 1);
        // The last column is a delay or a factor.
        const QString value = list == WhatIfList::collective_delays ? QStringLiteral("2 ms") : QStringLiteral("2");
        QVERIFY(model.setData(model.index(0, model.columnCount() - 1), value));
        document.undoStack()->undo();
        document.undoStack()->undo();
        QCOMPARE(model.rowCount(), 0);
    }
}

void TestWhatIfPage::cellsReadAndWriteAsTheFileDoes_data() {
    QTest::addColumn<WhatIfList>("list");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("typed");
    QTest::addColumn<QString>("shown");  // what the cell then displays, as the file would write it
    QTest::addColumn<QString>("saved");  // the rule's line in the saved file
    const auto delays = WhatIfList::collective_delays;
    const auto slow = WhatIfList::slow_devices;
    const auto links = WhatIfList::degraded_links;
    // A new collective delay: group dp, operation all-reduce, every layer, 1 ms.
    QTest::newRow("group") << delays << 0 << "tp" << "tp" << "{group: tp, operation: all-reduce, delay: 1 ms}";
    QTest::newRow("any group") << delays << 0 << "any" << "any" << "{operation: all-reduce, delay: 1 ms}";
    QTest::newRow("operation") << delays << 1 << "send" << "send" << "{group: dp, operation: send, delay: 1 ms}";
    QTest::newRow("layer range") << delays << 2 << " 1..3 " << "1..3"
                                 << "{group: dp, operation: all-reduce, layers: 1..3, delay: 1 ms}";
    QTest::newRow("one layer") << delays << 2 << "2..2" << "2"
                               << "{group: dp, operation: all-reduce, layers: 2, delay: 1 ms}";
    QTest::newRow("every layer") << delays << 2 << "" << "every layer"
                                 << "{group: dp, operation: all-reduce, delay: 1 ms}";
    QTest::newRow("delay") << delays << 3 << "2500us" << "2.5 ms"
                           << "{group: dp, operation: all-reduce, delay: 2.5 ms}";
    // A new slow device: NPU 0 at compute time factor 1.25.
    QTest::newRow("npus") << slow << 0 << "1, 0" << "0..1" << "{npus: [0..1], compute_time_factor: 1.25}";
    QTest::newRow("npus ranges") << slow << 0 << "1, 0..1" << "0..1" << "{npus: [0..1], compute_time_factor: 1.25}";
    QTest::newRow("factor") << slow << 1 << "1.5" << "1.5" << "{npus: [0], compute_time_factor: 1.5}";
    // A new degraded link: NPU 0's links of every dimension at half bandwidth.
    QTest::newRow("dimension") << links << 0 << "0" << "0" << "{dimension: 0, npus: [0], bandwidth_factor: 0.5}";
    QTest::newRow("every npu") << links << 1 << "" << "every NPU" << "{bandwidth_factor: 0.5}";
    QTest::newRow("bandwidth") << links << 2 << "0.25" << "0.25" << "{npus: [0], bandwidth_factor: 0.25}";
}

void TestWhatIfPage::cellsReadAndWriteAsTheFileDoes() {
    QFETCH(WhatIfList, list);
    QFETCH(int, column);
    QFETCH(QString, typed);
    QFETCH(QString, shown);
    QFETCH(QString, saved);
    ScenarioDocument document;
    QVERIFY(open_bert_dp(document));
    WhatIfRulesModel model(document, list);
    model.addRule();
    QSignalSpy refused(&model, &WhatIfRulesModel::editRefused);
    QVERIFY(model.setData(model.index(0, column), typed));
    QCOMPARE(refused.count(), 0);
    QCOMPARE(model.index(0, column).data().toString(), shown);
    QVERIFY2(document.validated() != nullptr,
             document.problems().empty() ? "" : document.problems()[0].message.c_str());
    // Saved and read back, the file holds the rule as the loader reads it.
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("rules.yaml"));
    QCOMPARE(document.saveAs(path), std::nullopt);
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    QVERIFY2(text.contains(QStringLiteral("- ") + saved), qPrintable(text));
    ScenarioDocument reopened;
    Diagnostics problems;
    QVERIFY(reopened.openFile(path, problems));
    QVERIFY(reopened.scenario().what_if == document.scenario().what_if);
}

void TestWhatIfPage::unreadableTextIsRefused_data() {
    QTest::addColumn<WhatIfList>("list");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("typed");
    QTest::addColumn<QString>("reason");  // the start of what editRefused says
    const auto delays = WhatIfList::collective_delays;
    QTest::newRow("unknown group") << delays << 0 << "xp"
                                   << "what_if.collective_delays[0].group: unknown value 'xp'; expected any, tp, cp, "
                                      "ep, dp or pp";
    QTest::newRow("layers not a range") << delays << 2 << "two"
                                        << "what_if.collective_delays[0].layers must be a layer number or a range";
    QTest::newRow("delay not a time") << delays << 3 << "2 GB" << "what_if.collective_delays[0].delay: ";
    QTest::newRow("npus reversed") << WhatIfList::slow_devices << 0 << "9..3"
                                   << "what_if.slow_devices[0].npus runs from 9 down to 3; write the smaller end first";
    QTest::newRow("npus not ids") << WhatIfList::slow_devices << 0 << "0, gpu3"
                                  << "what_if.slow_devices[0].npus must list NPU ids or ranges of them written "
                                     "first..last, such as 0, 8..15; 'gpu3' is neither";
    // Counted before they are listed: a trillion NPUs must not fill the memory.
    QTest::newRow("npus too many") << WhatIfList::slow_devices << 0 << "0..1000000000000"
                                   << "what_if.slow_devices[0].npus lists more than 100000 NPUs; the limit is 100000";
    QTest::newRow("factor not a number") << WhatIfList::slow_devices << 1 << "fast"
                                         << "what_if.slow_devices[0].compute_time_factor must be a number, not 'fast'";
    QTest::newRow("dimension not a number") << WhatIfList::degraded_links << 0 << "inner"
                                            << "what_if.degraded_links[0].dimension must be a dimension number or "
                                               "every, not 'inner'";
}

void TestWhatIfPage::unreadableTextIsRefused() {
    QFETCH(WhatIfList, list);
    QFETCH(int, column);
    QFETCH(QString, typed);
    QFETCH(QString, reason);
    ScenarioDocument document;
    QVERIFY(open_bert_dp(document));
    WhatIfRulesModel model(document, list);
    model.addRule();
    const Scenario before = document.scenario();
    const int undo_steps = document.undoStack()->count();
    QSignalSpy refused(&model, &WhatIfRulesModel::editRefused);
    QVERIFY(!model.setData(model.index(0, column), typed));
    QCOMPARE(refused.count(), 1);
    const QString said = refused.at(0).at(0).toString();
    QVERIFY2(said.startsWith(reason), qPrintable(said));
    QVERIFY(document.scenario() == before);
    QCOMPARE(document.undoStack()->count(), undo_steps);
}

void TestWhatIfPage::rulesAreAddedRemovedAndUndone() {
    ScenarioDocument document;
    QVERIFY(open_bert_dp(document));
    WhatIfPage page(document);
    WhatIfRulesModel* slow = page.rulesModel(WhatIfList::slow_devices);
    slow->addRule();
    slow->addRule();
    QVERIFY(slow->setData(slow->index(1, 0), QStringLiteral("1")));
    QCOMPARE(document.scenario().what_if.slow_devices.size(), std::size_t{2});
    QVERIFY(slow->removeRule(0));
    QCOMPARE(slow->rowCount(), 1);
    QCOMPARE(slow->index(0, 0).data().toString(), QStringLiteral("1"));  // the second rule moved up
    QVERIFY(!slow->removeRule(5));
    document.undoStack()->undo();  // the removal
    QCOMPARE(slow->rowCount(), 2);
    QCOMPARE(slow->index(0, 0).data().toString(), QStringLiteral("0"));
    QVERIFY(document.isModified());
    QCOMPARE(page.rulesTable(WhatIfList::collective_delays)->model()->rowCount(), 0);
}

void TestWhatIfPage::problemShowsOnItsCell() {
    ScenarioDocument document;
    QVERIFY(open_bert_dp(document));
    WhatIfPage page(document);
    WhatIfRulesModel* links = page.rulesModel(WhatIfList::degraded_links);
    links->addRule();
    // NPU 7 in a cluster of 2: the text reads, the validator names the problem, the scenario is not simulated.
    QVERIFY(links->setData(links->index(0, 1), QStringLiteral("7")));
    QVERIFY(document.validated() == nullptr);
    const QString problem = links->index(0, 1).data(WhatIfRulesModel::ProblemRole).toString();
    QVERIFY2(problem.startsWith(QStringLiteral("what_if.degraded_links[0].npus: NPU 7 is not in the cluster")),
             qPrintable(problem));
    QCOMPARE(links->index(0, 1).data(Qt::ToolTipRole).toString(), problem);
    QVERIFY(links->index(0, 1).data(Qt::BackgroundRole).isValid());
    QVERIFY(!links->index(0, 2).data(Qt::BackgroundRole).isValid());  // the factor is fine
    QVERIFY(page.focusProblem("what_if.degraded_links[0].npus"));
    QCOMPARE(page.rulesTable(WhatIfList::degraded_links)->currentIndex(), links->index(0, 1));
    QVERIFY(!page.focusProblem("what_if.slow_devices[0].npus"));
    QVERIFY(!page.sweep());  // nothing is swept while the scenario has problems
    QVERIFY(page.summary()->text().contains(QStringLiteral("The scenario has problems")));
}

void TestWhatIfPage::sweepFindsTheKneeOfTheOverlapWindow() {
    ScenarioDocument document;
    QVERIFY(open_bert_dp(document));
    WhatIfPage page(document);
    page.groupBox()->setCurrentText(QStringLiteral("dp"));
    page.operationBox()->setCurrentText(QStringLiteral("all-reduce"));
    page.delaysEdit()->setText(QStringLiteral("0.5ms, 1ms, 2ms, 3ms"));
    QSignalSpy settled(&page, &WhatIfPage::sweepSettled);
    QVERIFY(page.sweep());
    QVERIFY(settled.wait(60'000));
    const auto sweep = page.lastSweep();
    QVERIFY(sweep != nullptr);
    QCOMPARE(sweep->points.size(), std::size_t{5});  // with the run at 0
    QCOMPARE(sweep->delayed_calls, std::int64_t{5});
    QCOMPARE(sweep->hidden_delay_s, 1 * ms);
    QVERIFY(std::abs(sweep->initial_slope - 2.0) <= 1e-6);
    QVERIFY(std::abs(sweep->slope - 5.0) <= 1e-6);
    // Drawn: the five measured points, the initial slope's line from T0, and the knee at 1 ms.
    const QLineSeries* measured = series_named(*page.chart(), QStringLiteral("Simulated"));
    QVERIFY(measured != nullptr);
    QCOMPARE(measured->count(), 5);
    QCOMPARE(measured->at(2).x(), 1.0);  // in ms: the axis counts in ms for a 3 ms range
    QCOMPARE(point_labels(*page.chart()), QStringList{QStringLiteral("hidden 1 ms")});
    QVERIFY(series_named(*page.chart(), QStringLiteral("Only unhidden calls (slope 2.00)")) != nullptr);
    const QString said = page.summary()->text();
    for (const char* part : {"every dp all-reduce", "<b>1 ms</b>", "grows 2.00 ms per ms", "grows 5.00 ms per ms"}) {
        QVERIFY2(said.contains(QLatin1String(part)), qPrintable(said));
    }
}

void TestWhatIfPage::sweepControlsThatCannotBeReadSayWhy_data() {
    QTest::addColumn<QString>("group");
    QTest::addColumn<QString>("layers");
    QTest::addColumn<QString>("delays");
    QTest::addColumn<bool>("started");  // a sweep that starts fails in the core instead
    QTest::addColumn<QString>("message");
    QTest::newRow("delays not times") << "dp" << "" << "abc" << false << "Delays: ";
    QTest::newRow("no delay above 0") << "dp" << "" << "0ms" << true << "The sweep failed: no delay above 0 to sweep";
    QTest::newRow("layers reversed")
        << "dp" << "3..1" << "1ms" << false
        << "Layers: '3..1' is not a layer or a range of layers first..last, from 0 to 9999";
    QTest::newRow("group absent") << "tp" << "" << "1ms" << true
                                  << "The sweep failed: the delay matches no communication of this run";
}

void TestWhatIfPage::sweepControlsThatCannotBeReadSayWhy() {
    QFETCH(QString, group);
    QFETCH(QString, layers);
    QFETCH(QString, delays);
    QFETCH(bool, started);
    QFETCH(QString, message);
    ScenarioDocument document;
    QVERIFY(open_bert_dp(document));
    WhatIfPage page(document);
    page.groupBox()->setCurrentText(group);
    page.layersEdit()->setText(layers);
    page.delaysEdit()->setText(delays);
    QSignalSpy settled(&page, &WhatIfPage::sweepSettled);
    QCOMPARE(page.sweep(), started);
    if (started) QVERIFY(settled.wait(60'000));
    QVERIFY(page.lastSweep() == nullptr);
    QVERIFY2(page.summary()->text().contains(message.toHtmlEscaped()), qPrintable(page.summary()->text()));
}

void TestWhatIfPage::sweepOfAnOlderScenarioIsGreyed() {
    ScenarioDocument document;
    QVERIFY(open_bert_dp(document));
    WhatIfPage page(document);
    page.delaysEdit()->setText(QStringLiteral("1ms"));
    QSignalSpy settled(&page, &WhatIfPage::sweepSettled);
    QVERIFY(page.sweep());
    QVERIFY(settled.wait(60'000));
    QVERIFY(page.summary()->isEnabled());
    page.rulesModel(WhatIfList::slow_devices)->addRule();
    QVERIFY(!page.summary()->isEnabled());
    QVERIFY(page.chart()->opacity() < 1.0);
}

QTEST_MAIN(TestWhatIfPage)
#include "test_what_if_page.moc"
