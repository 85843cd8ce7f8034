// The Scenario dock's form (widgets/scenario_form/) and the problems panel's model (widgets/problems/): every field
// edit changes the scenario as the file would and undo restores it exactly (data-driven over fields); a bad value
// shows the loader's message on its field and in the problems list, under QAbstractItemModelTester; text that is
// not a value is refused on the field and changes nothing; choosing a problem goes to its field.

#include "main_window/main_window.h"
#include "problems/problem_list_model.h"
#include "scenario_form/scenario_form.h"
#include "validation/validate.h"
#include "presets/preset_library.h"
#include "scenario_file/preset_specs.h"
#include "scenario_file/scenario_writer.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>
#include <QWheelEvent>

using namespace parasight;
using namespace parasight::gui;

class TestScenarioForm : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void editAndUndo_data();
    void editAndUndo();
    void badValueIsMarked_data();
    void badValueIsMarked();
    void unreadableTextIsRefused();
    void optionalValueIsLeftOutWhenEmpty();
    void presetsReplaceTheirPart();
    void topologyRowsFollowTheDimensions();
    void dimensionsAreAddedAndRemoved();
    void problemGoesToItsField();
    void formFitsItsDock();
    void aLongProblemIsShownWhole();
    void autoMovesFromOneDegreeToAnother();
    void aLayoutIsChosenInOneClick();
    void anEditThatRebuildsTheFormKeepsItsPlace();
    void undoInAFieldIsTheDocumentsUndo();
    void aStackSetsItsBehavioursInOneEdit();
    void theWheelScrollsPastChoices();
    void hostMemoryIsAddedAndRemovedInTheForm();
    void nvmeAndPoolAreAddedAndRemovedInTheForm();
    void statesAreOffloadedWithTheirZeroStage_data();
    void statesAreOffloadedWithTheirZeroStage();
    void theOptimizerStepMovesToTheHost();
    void fp8GemmEfficiencyAppearsWithFp8Training();
    void kernelLaunchFollowsCudaGraphs();
    void everyFieldSaysWhatItMeans_data();
    void everyFieldSaysWhatItMeans();
};

namespace {

void open_default(MainWindow& window) { window.openDefaultScenario(); }

// The default scenario in a shown window of `size`, not run on its own; false if the window never showed.
bool show_default(MainWindow& window, QSize size) {
    window.resize(size);
    open_default(window);
    window.setAutoRun(false);
    window.show();
    return QTest::qWaitForWindowExposed(&window);
}

// tests/data/cli/small_pipeline.yaml (tp 2 · dp 2 · pp 2 on 8 NPUs) in a document of its own.
bool open_small_pipeline(ScenarioDocument& document) {
    Diagnostics problems;
    return document.openFile(QStringLiteral(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml"), problems);
}

// The form shown at 340 × 400, short enough that the small pipeline's fields scroll; false if it never showed.
bool show_scrolling(ScenarioForm& form) {
    form.resize(340, 400);
    form.show();
    return QTest::qWaitForWindowExposed(&form);
}

}  // namespace

void TestScenarioForm::initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("ParaSight tests"));
    QCoreApplication::setApplicationName(QStringLiteral("test_scenario_form"));
}

void TestScenarioForm::editAndUndo_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("shown");  // what the field shows after: the value as the file would write it
    // The default scenario: GPT-3 175B, batch 1536, tp 8 · pp 16 · dp 8 on 1024 A100-80GB.
    QTest::newRow("layers") << "model.layers" << "48" << "48";
    QTest::newRow("seq_len") << "model.seq_len" << "4096" << "4096";
    QTest::newRow("global batch") << "training.global_batch" << "3072" << "3072";
    QTest::newRow("micro-batch") << "training.micro_batch" << "2" << "2";
    QTest::newRow("dtype") << "training.dtype" << "fp16" << "fp16";
    QTest::newRow("optimizer") << "training.optimizer" << "sgd" << "sgd";
    QTest::newRow("attention") << "training.attention" << "fused" << "fused";
    QTest::newRow("stack") << "training.stack" << "fsdp" << "fsdp";
    QTest::newRow("fp32 gradients") << "training.fp32_gradients" << "true" << "true";
    QTest::newRow("switch reduces") << "cluster.topology[0].in_switch_reduction" << "true" << "true";
    QTest::newRow("attention efficiency") << "cluster.device.attention_efficiency" << "0.55" << "0.55";
    // The A100's 108 as an H100's 132; empty: none, matmuls unquantised (the file then leaves the key out).
    QTest::newRow("streaming multiprocessors") << "cluster.device.streaming_multiprocessors" << "132" << "132";
    QTest::newRow("no streaming multiprocessors") << "cluster.device.streaming_multiprocessors" << "" << "";
    QTest::newRow("memory, file units") << "cluster.device.memory" << "40GiB" << "40 GiB";
    // The A100 preset's 1573 MiB of CUDA context as the V100's 1271 MiB; empty: none counted (the key left out).
    QTest::newRow("context memory") << "cluster.device.context_memory" << "1271 MiB" << "1271 MiB";
    QTest::newRow("no context memory") << "cluster.device.context_memory" << "" << "";
    // Written back as the file writer writes it: the shortest exact form, here in terabits.
    QTest::newRow("memory bandwidth") << "cluster.device.memory_bandwidth" << "1.5 TB/s" << "12 Tb/s";
    QTest::newRow("dimension bandwidth") << "cluster.topology[0].bandwidth" << "150 GB/s" << "150 GB/s";
    QTest::newRow("dimension latency") << "cluster.topology[1].latency" << "7 us" << "7 us";
    QTest::newRow("dimension kind") << "cluster.topology[0].kind" << "ring" << "ring";
    QTest::newRow("tp") << "parallelism.tp" << "4" << "4";
    // `auto`, as the problem about degrees that do not multiply to the devices tells the user to write.
    QTest::newRow("dp auto") << "parallelism.dp" << "auto" << "auto";
    QTest::newRow("zero") << "parallelism.zero" << "2" << "2";
    QTest::newRow("sequence parallel") << "parallelism.sequence_parallel" << "false" << "false";
    QTest::newRow("dp overlap") << "parallelism.overlap_grad_reduce" << "false" << "false";
    QTest::newRow("pp overlap") << "parallelism.overlap_p2p" << "false" << "false";
    QTest::newRow("pp scatter/gather") << "parallelism.pp_scatter_gather" << "true" << "true";
    QTest::newRow("tp overlap") << "parallelism.tp_overlap" << "none" << "none";
    QTest::newRow("recompute") << "parallelism.recompute" << "full" << "full";
    QTest::newRow("schedule") << "parallelism.schedule" << "gpipe" << "gpipe";
    QTest::newRow("overlap") << "simulation.overlap_slowdown" << "0.25" << "0.25";
    QTest::newRow("bandwidth sharing") << "simulation.bandwidth_sharing" << "false" << "false";
    QTest::newRow("gradient bucket") << "simulation.gradient_bucket" << "50 MiB" << "50 MiB";
}

void TestScenarioForm::editAndUndo() {
    QFETCH(QString, path);
    QFETCH(QString, text);
    QFETCH(QString, shown);
    ScenarioDocument document;
    const Scenario before = [&] {
        MainWindow scratch;  // only to load the bundled default the way the window does
        open_default(scratch);
        return scratch.document().scenario();
    }();
    document.edit(QStringLiteral("start"), QString(), [&](Scenario& s) { s = before; });
    document.undoStack()->clear();
    ScenarioForm form(document);
    QSignalSpy changed(&document, &ScenarioDocument::scenarioChanged);
    form.enter(path, text);
    QCOMPARE(changed.count(), 1);
    QVERIFY(!(document.scenario() == before));
    QCOMPARE(document.undoStack()->count(), 1);
    // The field reads back what the scenario now holds, written as the file would write it.
    for (const ScenarioField& field : scenario_fields(document.scenario())) {
        if (field.path == path) QCOMPARE(field.read(document.scenario()), shown);
    }
    QWidget* editor = form.editor(path);
    QVERIFY(editor != nullptr);
    if (auto* line = qobject_cast<QLineEdit*>(editor)) QCOMPARE(line->text(), shown);
    if (auto* box = qobject_cast<QComboBox*>(editor)) QCOMPARE(box->currentText(), shown);
    if (auto* check = qobject_cast<QCheckBox*>(editor)) QCOMPARE(check->isChecked(), shown == QStringLiteral("true"));
    // Undo restores the scenario exactly, and the field with it.
    document.undoStack()->undo();
    QVERIFY(document.scenario() == before);
    for (const ScenarioField& field : scenario_fields(before)) {
        if (field.path != path) continue;
        if (auto* line = qobject_cast<QLineEdit*>(form.editor(path))) QCOMPARE(line->text(), field.read(before));
    }
    // The same value entered again changes nothing and adds no undo step.
    form.enter(path, scenario_fields(before).front().path == path ? text : QString());
}

void TestScenarioForm::badValueIsMarked_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");  // the loader's words (docs/scenario-reference.md)
    QTest::newRow("micro-batch 0") << "training.micro_batch" << "0"
                                   << "training.micro_batch must be between 1 and 10000000, not 0";
    QTest::newRow("zero stage 4") << "parallelism.zero" << "4" << "parallelism.zero must be between 0 and 3, not 4";
    QTest::newRow("no bandwidth") << "cluster.topology[0].bandwidth" << "0 GB/s"
                                  << "cluster.topology[0].bandwidth must be at least 1 KB/s, got '0 B/s'";
    QTest::newRow("SMs past the range") << "cluster.device.streaming_multiprocessors" << "200000"
                                        << "cluster.device.streaming_multiprocessors must be between 1 and 100000, "
                                           "not 200000";
}

void TestScenarioForm::badValueIsMarked() {
    QFETCH(QString, path);
    QFETCH(QString, text);
    QFETCH(QString, message);
    MainWindow window;
    open_default(window);
    window.setAutoRun(false);
    window.scenarioForm()->enter(path, text);
    QVERIFY(window.document().validated() == nullptr);
    // On the field ...
    QVERIFY2(window.scenarioForm()->message(path).contains(message), qPrintable(window.scenarioForm()->message(path)));
    // ... and in the problems list, whose rows carry the path.
    ProblemListModel* problems = window.problemList();
    QAbstractItemModelTester tester(problems, QAbstractItemModelTester::FailureReportingMode::QtTest);
    bool listed = false;
    for (int row = 0; row < problems->rowCount(); ++row) {
        const QModelIndex index = problems->index(row);
        if (index.data(ProblemListModel::PathRole).toString() == path) {
            listed = index.data().toString().contains(message);
        }
    }
    QVERIFY(listed);
    // Undo clears both.
    window.document().undoStack()->undo();
    QVERIFY(window.document().validated() != nullptr);
    QVERIFY(window.scenarioForm()->message(path).isEmpty());
    QCOMPARE(problems->rowCount(), 0);
}

void TestScenarioForm::unreadableTextIsRefused() {
    ScenarioDocument document;
    MainWindow scratch;
    open_default(scratch);
    const Scenario before = scratch.document().scenario();
    document.edit(QStringLiteral("start"), QString(), [&](Scenario& s) { s = before; });
    ScenarioForm form(document);
    const int steps = document.undoStack()->count();
    form.enter(QStringLiteral("cluster.device.memory"), QStringLiteral("80 GX"));
    form.enter(QStringLiteral("training.global_batch"), QStringLiteral("1.5"));
    QVERIFY(document.scenario() == before);
    QCOMPARE(document.undoStack()->count(), steps);
    QVERIFY2(form.message(QStringLiteral("cluster.device.memory")).startsWith(QStringLiteral("cluster.device.memory: ")),
             qPrintable(form.message(QStringLiteral("cluster.device.memory"))));
    QCOMPARE(form.message(QStringLiteral("training.global_batch")),
             QStringLiteral("training.global_batch must be a whole number, not '1.5'"));
    // A readable value clears the message.
    form.enter(QStringLiteral("training.global_batch"), QStringLiteral("3072"));
    QVERIFY(form.message(QStringLiteral("training.global_batch")).isEmpty());
}

// A CNN's samples per epoch, which only the oracle reads, may be left out: the empty editor then says what that means.
void TestScenarioForm::optionalValueIsLeftOutWhenEmpty() {
    MainWindow window;
    window.setAutoRun(false);
    window.openPreset(*parasight::find_preset(parasight::PresetKind::scenario, "resnet50-abci"));
    ScenarioDocument& document = window.document();
    ScenarioForm* form = window.scenarioForm();
    const QString path = QStringLiteral("training.dataset_samples");
    auto* line = qobject_cast<QLineEdit*>(form->editor(path));
    QVERIFY(line != nullptr);
    QCOMPARE(line->text(), QStringLiteral("1281167"));
    QCOMPARE(line->placeholderText(), QStringLiteral("one batch"));

    form->enter(path, QString());
    QVERIFY(!document.scenario().training.dataset_samples.has_value());
    QVERIFY(document.validated() != nullptr);
    QCOMPARE(line->text(), QString());
    form->enter(path, QStringLiteral("50000"));
    QCOMPARE(document.scenario().training.dataset_samples, std::optional<std::int64_t>(50000));
    // Fewer samples than a batch of 256: the loader's words at the field.
    form->enter(path, QStringLiteral("100"));
    QCOMPARE(form->message(path),
             QStringLiteral("training.dataset_samples: dataset_samples 100 is less than global_batch 256: an epoch "
                            "holds at least one iteration"));
    form->enter(path, QStringLiteral("many"));
    QCOMPARE(form->message(path), QStringLiteral("training.dataset_samples must be a whole number, not 'many'"));
    document.undoStack()->undo();
    document.undoStack()->undo();
    document.undoStack()->undo();
    QCOMPARE(document.scenario().training.dataset_samples, std::optional<std::int64_t>(1281167));
    // A transformer has no such row.
    window.openDefaultScenario();
    QVERIFY(window.scenarioForm()->editor(path) == nullptr);
}

void TestScenarioForm::presetsReplaceTheirPart() {
    MainWindow window;
    open_default(window);
    window.setAutoRun(false);
    ScenarioForm* form = window.scenarioForm();
    form->enter(QStringLiteral("cluster.device"), QStringLiteral("h100-sxm"));
    // Exactly what `device: h100-sxm` in the file gives; the rest of the cluster stays.
    QVERIFY(window.document().scenario().cluster.device == *device_preset_spec("h100-sxm"));
    QCOMPARE(window.document().scenario().cluster.topology.size(), std::size_t{2});
    form->enter(QStringLiteral("model.preset"), QStringLiteral("llama3-70b"));
    QVERIFY(window.document().scenario().model == *model_preset_spec("llama3-70b"));
    auto* layers = qobject_cast<QLineEdit*>(form->editor(QStringLiteral("model.layers")));
    QVERIFY(layers != nullptr);
    QCOMPARE(layers->text(), QString::number(model_preset_spec("llama3-70b")->layers));
    window.document().undoStack()->undo();
    window.document().undoStack()->undo();
    QCOMPARE(window.document().scenario().model.preset, std::string("gpt3-175b"));
    QCOMPARE(window.document().scenario().cluster.device.preset, std::string("a100-80gb"));
}

void TestScenarioForm::topologyRowsFollowTheDimensions() {
    MainWindow window;
    open_default(window);
    window.setAutoRun(false);
    ScenarioForm* form = window.scenarioForm();
    QVERIFY(form->editor(QStringLiteral("cluster.topology[1].size")) != nullptr);
    QVERIFY(form->editor(QStringLiteral("cluster.topology[2].size")) == nullptr);
    // A third dimension (an edit made elsewhere, e.g. the topology canvas) gets its fields at once; undo removes them.
    window.document().edit(QStringLiteral("add"), QString(), [](Scenario& s) {
        Dimension ring;
        ring.kind = DimensionKind::ring;
        ring.size = 2;
        ring.bandwidth_Bps = 50e9;
        ring.latency_s = 2e-6;
        s.cluster.topology.push_back(ring);
    });
    auto* size = qobject_cast<QLineEdit*>(form->editor(QStringLiteral("cluster.topology[2].size")));
    QVERIFY(size != nullptr);
    QCOMPARE(size->text(), QStringLiteral("2"));
    window.document().undoStack()->undo();
    QVERIFY(form->editor(QStringLiteral("cluster.topology[2].size")) == nullptr);
}

void TestScenarioForm::dimensionsAreAddedAndRemoved() {
    MainWindow window;
    open_default(window);
    window.setAutoRun(false);
    ScenarioForm* form = window.scenarioForm();
    const std::vector<Dimension> before = window.document().scenario().cluster.topology;  // 8 x 128 (switch, switch)
    QCOMPARE(before.size(), std::size_t{2});
    // Add Outer Dimension sits under the last dimension only: a switch of 2 with the outermost's bandwidth and
    // latency, doubling the NPUs to 2048 — which tp 8 x pp 16 x dp 8 = 1024 no longer matches, as the form says.
    QVERIFY(form->findChild<QPushButton*>(QStringLiteral("AddTopologyDimension")) != nullptr);
    form->findChild<QPushButton*>(QStringLiteral("AddTopologyDimension"))->click();
    const std::vector<Dimension>& added = window.document().scenario().cluster.topology;
    QCOMPARE(added.size(), std::size_t{3});
    QCOMPARE(added[2].kind, DimensionKind::switch_fabric);
    QCOMPARE(added[2].size, 2);
    QCOMPARE(added[2].bandwidth_Bps, before[1].bandwidth_Bps);
    QCOMPARE(added[2].latency_s, before[1].latency_s);
    QCOMPARE(window.document().scenario().device_count(), std::int64_t{2048});
    QVERIFY(form->editor(QStringLiteral("cluster.topology[2].size")) != nullptr);
    QVERIFY(window.document().validated() == nullptr);
    QCOMPARE(QString::fromStdString(window.document().problems().front().message),
             QStringLiteral("the parallel degrees multiply to 1024 (tp=8 x dp=8 x pp=16) but the cluster has 2048 "
                            "devices (8 x 128 x 2); change a degree or write one of them as 'auto'"));
    QTest::qWait(0);  // the old form goes once the event loop runs

    // Remove dimension 0 (the 8-NPU switch): 128 x 2 = 256 NPUs left, the rest in order.
    form->findChild<QPushButton*>(QStringLiteral("RemoveTopologyDimension0"))->click();
    const std::vector<Dimension>& removed = window.document().scenario().cluster.topology;
    QCOMPARE(removed.size(), std::size_t{2});
    QVERIFY(removed[0] == before[1]);
    QCOMPARE(removed[1].size, 2);
    // Each is one undo step; undoing both gives back the topology exactly.
    window.document().undoStack()->undo();
    window.document().undoStack()->undo();
    QVERIFY(window.document().scenario().cluster.topology == before);
    QVERIFY(window.document().validated() != nullptr);

    // With one dimension left, Remove is disabled: a topology has at least one.
    window.document().edit(QStringLiteral("one"), QString(), [](Scenario& s) { s.cluster.topology.resize(1); });
    QTest::qWait(0);
    auto* remove = form->findChild<QPushButton*>(QStringLiteral("RemoveTopologyDimension0"));
    QVERIFY(remove != nullptr);
    QVERIFY(!remove->isEnabled());
}

void TestScenarioForm::problemGoesToItsField() {
    MainWindow window;
    QVERIFY(show_default(window, QSize(1400, 900)));
    window.scenarioForm()->enter(QStringLiteral("simulation.collective_chunks"), QStringLiteral("0"));
    auto* view = window.findChild<QListView*>(QStringLiteral("ProblemsList"));
    QVERIFY(view != nullptr);
    window.findChild<QToolButton*>(QStringLiteral("ProblemsCount"))->click();  // the panel opens when asked
    QVERIFY(!view->parentWidget()->isHidden());
    QCOMPARE(view->model()->rowCount(), 1);
    // Choosing it focuses its field, scrolled into view (the simulation section is the form's last).
    Q_EMIT view->activated(view->model()->index(0, 0));
    QWidget* field = window.scenarioForm()->editor(QStringLiteral("simulation.collective_chunks"));
    QTRY_VERIFY(field->hasFocus());
    QVERIFY(!field->visibleRegion().isEmpty());
    // Also when the Scenario dock was closed and the form scrolled to its top: the dock opens and, once laid out,
    // shows the field with its message under it.
    auto* scroll = window.scenarioForm()->findChild<QScrollArea*>();
    scroll->verticalScrollBar()->setValue(0);
    auto* dock = window.findChild<QDockWidget*>(QStringLiteral("ScenarioDock"));
    dock->hide();
    window.setFocus();
    Q_EMIT view->activated(view->model()->index(0, 0));
    QTRY_VERIFY(field->hasFocus());
    QTRY_VERIFY(!field->visibleRegion().isEmpty());
    const QLabel* message = field->parentWidget()->findChild<QLabel*>();
    QVERIFY(message != nullptr && !message->isHidden());
    QTRY_COMPARE(message->visibleRegion().boundingRect().height(), message->height());
}

void TestScenarioForm::formFitsItsDock() {
    // Every field fits the dock's width: the form narrows instead of being cut off at the right.
    MainWindow window;
    QVERIFY(show_default(window, QSize(1400, 900)));
    auto* scroll = window.scenarioForm()->findChild<QScrollArea*>();
    QVERIFY(scroll != nullptr);
    QVERIFY2(scroll->widget()->width() <= scroll->viewport()->width(),
             qPrintable(QStringLiteral("%1 > %2 (minimum %3)")
                            .arg(scroll->widget()->width())
                            .arg(scroll->viewport()->width())
                            .arg(scroll->widget()->minimumSizeHint().width())));
}

// A problem that wraps to more lines than the form reserved was cut at both ends and overlapped the next row: the
// form layout worked out the field's height for a width a pixel wider than it then gave it.
void TestScenarioForm::aLongProblemIsShownWhole() {
    MainWindow window;
    QVERIFY(show_default(window, QSize(1200, 760)));
    // 7 heads: the problems on model.heads, model.kv_heads and parallelism.tp wrap to four or five lines.
    window.scenarioForm()->enter(QStringLiteral("model.heads"), QStringLiteral("7"));
    QVERIFY(!window.scenarioForm()->message(QStringLiteral("parallelism.tp")).isEmpty());
    auto* scroll = window.scenarioForm()->findChild<QScrollArea*>();
    QVERIFY(scroll != nullptr);
    QTest::qWait(50);  // the layout requests the edit posted
    int shown = 0;
    for (const QLabel* label : scroll->widget()->findChildren<QLabel*>()) {
        if (!label->wordWrap() || !label->isVisibleTo(scroll->widget()) || label->text().isEmpty()) continue;
        ++shown;
        QVERIFY2(label->height() >= label->heightForWidth(label->width()),
                 qPrintable(QStringLiteral("'%1' is %2 px high, needs %3 at %4 px wide")
                                .arg(label->text())
                                .arg(label->height())
                                .arg(label->heightForWidth(label->width()))
                                .arg(label->width())));
    }
    QVERIFY(shown >= 3);
}

// The form refused `auto` for a degree although the problem about degrees that do not multiply to the devices says
// to write it. Written into one degree it derives that one; written into another, the first is fixed at the degree it
// had been derived to.
void TestScenarioForm::autoMovesFromOneDegreeToAnother() {
    ScenarioDocument document;
    QVERIFY(open_small_pipeline(document));
    ScenarioForm form(document);
    form.enter(QStringLiteral("parallelism.dp"), QStringLiteral("auto"));
    QCOMPARE(document.scenario().parallelism.derived_axis, std::optional<ParallelAxis>(ParallelAxis::dp));
    QVERIFY(document.validated() != nullptr);
    QCOMPARE(document.validated()->value().parallelism.dp, 2);  // 8 devices / (tp 2 · pp 2)
    QCOMPARE(qobject_cast<QLineEdit*>(form.editor(QStringLiteral("parallelism.dp")))->text(), QStringLiteral("auto"));
    // Now tp: dp keeps the 2 it was derived to, and tp is derived — 8 / (dp 2 · pp 2) = 2.
    form.enter(QStringLiteral("parallelism.tp"), QStringLiteral("auto"));
    QCOMPARE(document.scenario().parallelism.derived_axis, std::optional<ParallelAxis>(ParallelAxis::tp));
    QCOMPARE(document.scenario().parallelism.dp, 2);
    QVERIFY(document.validated() != nullptr);
    QCOMPARE(document.validated()->value().parallelism.tp, 2);
    QCOMPARE(qobject_cast<QLineEdit*>(form.editor(QStringLiteral("parallelism.dp")))->text(), QStringLiteral("2"));
    QCOMPARE(qobject_cast<QLineEdit*>(form.editor(QStringLiteral("parallelism.tp")))->text(), QStringLiteral("auto"));
    // A number makes it an ordinary degree again.
    form.enter(QStringLiteral("parallelism.tp"), QStringLiteral("2"));
    QVERIFY(!document.scenario().parallelism.derived_axis);
    // Anything else is refused with what it may be.
    form.enter(QStringLiteral("parallelism.tp"), QStringLiteral("automatic"));
    QCOMPARE(form.message(QStringLiteral("parallelism.tp")),
             QStringLiteral("parallelism.tp must be a whole number or auto, not 'automatic'"));
}

// Changing tp, pp and dp one field at a time steps through invalid products; the picker lists the layouts that
// validate and sets all three in one undo step. small_pipeline.yaml: 8 NPUs, 8 heads, 4 layers, batch 16 in
// micro-batches of 2. tp divides 8 heads and 8 NPUs (1, 2, 4, 8); pp divides the 4 layers and 8 / tp; dp is the rest;
// every dp (1 to 8) takes 16 sequences in micro-batches of 2 (dp · 2 divides 16). Nine layouts.
void TestScenarioForm::aLayoutIsChosenInOneClick() {
    ScenarioDocument document;
    QVERIFY(open_small_pipeline(document));
    ScenarioForm form(document);
    auto* picker = form.findChild<QPushButton*>(QStringLiteral("LayoutPicker"));
    QVERIFY(picker != nullptr);
    QMenu* menu = picker->menu();
    Q_EMIT menu->aboutToShow();
    QStringList names;
    QString checked;
    for (const QAction* action : menu->actions()) {
        names << action->text();
        if (action->isChecked()) checked = action->text();
    }
    QCOMPARE(names, (QStringList{"tp 1 × pp 1 × dp 8", "tp 1 × pp 2 × dp 4", "tp 1 × pp 4 × dp 2",
                                 "tp 2 × pp 1 × dp 4", "tp 2 × pp 2 × dp 2", "tp 2 × pp 4 × dp 1",
                                 "tp 4 × pp 1 × dp 2", "tp 4 × pp 2 × dp 1", "tp 8 × pp 1 × dp 1"}));
    QCOMPARE(checked, QStringLiteral("tp 2 × pp 2 × dp 2"));
    const Scenario before = document.scenario();
    menu->actions().at(7)->trigger();
    QCOMPARE(document.undoStack()->count(), 1);
    QVERIFY(document.validated() != nullptr);
    QCOMPARE(document.scenario().parallelism.tp, 4);
    QCOMPARE(document.scenario().parallelism.pp, 2);
    QCOMPARE(document.scenario().parallelism.dp, 1);
    QCOMPARE(qobject_cast<QLineEdit*>(form.editor(QStringLiteral("parallelism.tp")))->text(), QStringLiteral("4"));
    document.undoStack()->undo();
    QVERIFY(document.scenario() == before);
}

// Adding a topology dimension adds its fields, which rebuilds the form: it jumped back to its top, away from the
// button just pressed. Its scroll position and the field with the focus stay.
void TestScenarioForm::anEditThatRebuildsTheFormKeepsItsPlace() {
    ScenarioDocument document;
    QVERIFY(open_small_pipeline(document));
    ScenarioForm form(document);
    QVERIFY(show_scrolling(form));
    auto* scroll = form.findChild<QScrollArea*>();
    auto* add = form.findChild<QPushButton*>(QStringLiteral("AddTopologyDimension"));
    QVERIFY(add != nullptr);
    scroll->ensureWidgetVisible(add);
    const int scrolled_to = scroll->verticalScrollBar()->value();
    QVERIFY(scrolled_to > 0);
    auto* pp = qobject_cast<QLineEdit*>(form.editor(QStringLiteral("parallelism.pp")));
    pp->setFocus();
    QTRY_VERIFY(pp->hasFocus());
    document.edit(QStringLiteral("add a dimension"), QString(), [](Scenario& s) {
        s.cluster.topology.push_back(s.cluster.topology.back());
    });
    QVERIFY(form.findChild<QPushButton*>(QStringLiteral("RemoveTopologyDimension2")) != nullptr);  // rebuilt
    QCOMPARE(scroll->verticalScrollBar()->value(), scrolled_to);
    QTRY_VERIFY(form.editor(QStringLiteral("parallelism.pp"))->hasFocus());
}

// Scrolling the form with the wheel changed every choice the pointer passed over (Qt's combo box takes the wheel
// under the pointer): found driving the window, the stack became fsdp and the attention fused. A choice not clicked
// passes the wheel to the form, which scrolls; one the user has clicked still turns with it.
void TestScenarioForm::theWheelScrollsPastChoices() {
    ScenarioDocument document;
    QVERIFY(open_small_pipeline(document));
    ScenarioForm form(document);
    QVERIFY(show_scrolling(form));
    auto* scroll = form.findChild<QScrollArea*>();
    auto* stack = qobject_cast<QComboBox*>(form.editor(QStringLiteral("training.stack")));
    QVERIFY(stack != nullptr);
    scroll->ensureWidgetVisible(stack);
    const Scenario before = document.scenario();
    const int scrolled_to = scroll->verticalScrollBar()->value();
    const QPoint centre = stack->rect().center();
    const auto wheel_down = [&] {
        QWheelEvent wheel(centre, stack->mapToGlobal(centre), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(stack, &wheel);
    };
    wheel_down();
    QVERIFY(document.scenario() == before);
    QCOMPARE(document.undoStack()->count(), 0);
    QVERIFY(scroll->verticalScrollBar()->value() > scrolled_to);
    // Clicked into, it is the user's to turn.
    stack->setFocus();
    QTRY_VERIFY(stack->hasFocus());
    wheel_down();
    QVERIFY(document.scenario().training.stack != before.training.stack);
}

// Offloading the optimizer to host memory needs the tier, which the form adds: typing a capacity makes it (its link
// still 0, shown empty, which validate() points at), typing the link completes it, emptying the capacity removes it.
void TestScenarioForm::hostMemoryIsAddedAndRemovedInTheForm() {
    ScenarioDocument document;
    QVERIFY(open_small_pipeline(document));
    ScenarioForm form(document);
    QVERIFY(show_scrolling(form));
    const QString capacity = QStringLiteral("cluster.memory_system.host.capacity");
    const QString link = QStringLiteral("cluster.memory_system.host.link_bandwidth");
    auto* capacity_editor = qobject_cast<QLineEdit*>(form.editor(capacity));
    QVERIFY(capacity_editor != nullptr);
    QVERIFY(capacity_editor->text().isEmpty());
    QCOMPARE(capacity_editor->placeholderText(), QStringLiteral("with its unit; empty: no host memory"));
    QVERIFY(!document.scenario().cluster.memory_system.host);

    form.enter(capacity, QStringLiteral("1 TiB"));
    const auto& host = document.scenario().cluster.memory_system.host;
    QVERIFY(host.has_value());
    QCOMPARE(host->capacity_bytes, 1024.0 * 1024 * 1024 * 1024);
    const Validation half = validate(document.scenario());
    QVERIFY(!half.ok());
    QCOMPARE(QString::fromStdString(half.diagnostics.front().path), link);
    // The link not given yet shows empty, not "0 B/s" that typing would be appended to (found driving the window).
    QVERIFY(qobject_cast<QLineEdit*>(form.editor(link))->text().isEmpty());
    QVERIFY(form.message(link).startsWith(link + QStringLiteral(" must be")));
    form.enter(link, QStringLiteral("32 GB/s"));
    form.enter(QStringLiteral("parallelism.offload_optimizer"), QStringLiteral("host"));
    QVERIFY(validate(document.scenario()).ok());
    QCOMPARE(document.scenario().cluster.memory_system.host->link_bandwidth_Bps, 32e9);

    form.enter(capacity, QString());
    QVERIFY(!document.scenario().cluster.memory_system.host);
    QCOMPARE(QString::fromStdString(validate(document.scenario()).diagnostics.front().path),
             QStringLiteral("parallelism.offload_optimizer"));
    QCOMPARE(document.undoStack()->count(), 4);

    // In the window's dock, the link's problem, which begins with the 41-character path, wraps inside the form
    // instead of widening it past the dock: the fields were cut at the right edge (found driving the window).
    MainWindow window;
    QVERIFY(show_default(window, QSize(1200, 760)));
    window.scenarioForm()->enter(capacity, QStringLiteral("1 TB"));
    QVERIFY(!window.scenarioForm()->message(link).isEmpty());
    auto* scroll = window.scenarioForm()->findChild<QScrollArea*>();
    QTRY_VERIFY2(scroll->widget()->width() <= scroll->viewport()->width(),
                 qPrintable(QStringLiteral("the form is %1 px wide in a %2 px dock")
                                .arg(scroll->widget()->width())
                                .arg(scroll->viewport()->width())));
}

// Offloading the layers' parameters needs ZeRO-3's shards, the gradients ZeRO-2's: chosen at zero 0 the field says
// so, and at the stage it needs the run is valid; back to none, nothing of it is written.
void TestScenarioForm::statesAreOffloadedWithTheirZeroStage_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("needs");
    QTest::addColumn<QString>("zero");
    QTest::newRow("parameters") << QStringLiteral("parallelism.offload_parameters")
                                << QStringLiteral("it needs zero: 3, and zero is 0") << QStringLiteral("3");
    QTest::newRow("gradients") << QStringLiteral("parallelism.offload_gradients")
                               << QStringLiteral("it needs zero: 2 or 3, and zero is 0") << QStringLiteral("2");
}

void TestScenarioForm::statesAreOffloadedWithTheirZeroStage() {
    QFETCH(QString, path);
    QFETCH(QString, needs);
    QFETCH(QString, zero);
    ScenarioDocument document;
    QVERIFY(open_small_pipeline(document));
    ScenarioForm form(document);
    QVERIFY(show_scrolling(form));
    form.enter(QStringLiteral("cluster.memory_system.host.capacity"), QStringLiteral("1 TiB"));
    form.enter(QStringLiteral("cluster.memory_system.host.link_bandwidth"), QStringLiteral("32 GB/s"));
    form.enter(path, QStringLiteral("host"));
    QVERIFY2(form.message(path).contains(needs), qPrintable(form.message(path)));
    form.enter(QStringLiteral("parallelism.zero"), zero);
    QVERIFY(validate(document.scenario()).ok());
    QVERIFY(form.message(path).isEmpty());
    const std::string key = path.section(QLatin1Char('.'), 1).toStdString() + ": host";
    QVERIFY(write_scenario_yaml(document.scenario()).find(key) != std::string::npos);
    form.enter(path, QStringLiteral("none"));
    QVERIFY(write_scenario_yaml(document.scenario()).find(key.substr(0, key.find(':'))) == std::string::npos);
}

// ZeRO-Offload's CPU-Adam from the form: with states and gradients in host memory, the step on the host asks for the
// host's memory bandwidth, then runs; both are written, and with the step back on the device the choice is not.
void TestScenarioForm::theOptimizerStepMovesToTheHost() {
    ScenarioDocument document;
    QVERIFY(open_small_pipeline(document));
    ScenarioForm form(document);
    QVERIFY(show_scrolling(form));
    const QString step = QStringLiteral("parallelism.optimizer_step_on");
    form.enter(QStringLiteral("cluster.memory_system.host.capacity"), QStringLiteral("1 TiB"));
    form.enter(QStringLiteral("cluster.memory_system.host.link_bandwidth"), QStringLiteral("32 GB/s"));
    form.enter(QStringLiteral("parallelism.zero"), QStringLiteral("2"));
    form.enter(QStringLiteral("parallelism.offload_optimizer"), QStringLiteral("host"));
    form.enter(QStringLiteral("parallelism.offload_gradients"), QStringLiteral("host"));
    QVERIFY(validate(document.scenario()).ok());
    form.enter(step, QStringLiteral("host"));
    QVERIFY2(form.message(step).contains(QStringLiteral("give cluster.memory_system.host.memory_bandwidth")),
             qPrintable(form.message(step)));
    form.enter(QStringLiteral("cluster.memory_system.host.memory_bandwidth"), QStringLiteral("409.6 GB/s"));
    QVERIFY(validate(document.scenario()).ok());
    QVERIFY(form.message(step).isEmpty());
    QCOMPARE(document.scenario().cluster.memory_system.host->memory_bandwidth_Bps, 409.6e9);
    const std::string written = write_scenario_yaml(document.scenario());
    QVERIFY2(written.find("optimizer_step_on: host") != std::string::npos &&
                 written.find("memory_bandwidth: 409.6 GB/s") != std::string::npos,
             written.c_str());
    form.enter(step, QStringLiteral("device"));
    QVERIFY(write_scenario_yaml(document.scenario()).find("optimizer_step_on") == std::string::npos);
}

// NVMe and the memory pool, like host memory: the tier's first field adds it and, emptied, removes it; the pool's other
// fields appear while it is there (their numbers 0 until given, shown empty), and an emptied one is not given again
// rather than removing the pool. The GPUs a node shows empty while not written.
void TestScenarioForm::nvmeAndPoolAreAddedAndRemovedInTheForm() {
    ScenarioDocument document;
    QVERIFY(open_small_pipeline(document));
    ScenarioForm form(document);
    QVERIFY(show_scrolling(form));
    const QString prefix = QStringLiteral("cluster.memory_system.");
    const auto text_of = [&](const QString& path) {
        auto* editor = qobject_cast<QLineEdit*>(form.editor(path));
        return editor ? editor->text() : QStringLiteral("(no editor)");
    };
    // Read anew after each edit: an edit replaces the document's value.
    const auto memory = [&]() -> const parasight::MemorySystemSpec& {
        return document.scenario().cluster.memory_system;
    };

    QCOMPARE(text_of(prefix + QStringLiteral("gpus_per_node")), QString());
    form.enter(prefix + QStringLiteral("gpus_per_node"), QStringLiteral("4"));
    QCOMPARE(memory().gpus_per_node, 4);
    form.enter(prefix + QStringLiteral("gpus_per_node"), QString());
    QCOMPARE(memory().gpus_per_node, 0);

    form.enter(prefix + QStringLiteral("nvme.capacity"), QStringLiteral("15 TB"));
    QVERIFY(memory().nvme.has_value());
    QCOMPARE(memory().nvme->capacity_bytes, 15e12);
    QCOMPARE(QString::fromStdString(validate(document.scenario()).diagnostics.front().path),
             prefix + QStringLiteral("nvme.bandwidth"));
    form.enter(prefix + QStringLiteral("nvme.bandwidth"), QStringLiteral("25 GB/s"));
    QVERIFY(validate(document.scenario()).ok());
    form.enter(prefix + QStringLiteral("nvme.capacity"), QString());
    QVERIFY(!memory().nvme.has_value());

    // Without a pool only its first field is there.
    const QString fabric = prefix + QStringLiteral("pool.in_node_bandwidth");
    const QString switches = prefix + QStringLiteral("pool.out_node_switches");
    QVERIFY(form.editor(fabric) != nullptr);
    QVERIFY(form.editor(switches) == nullptr);
    form.enter(fabric, QStringLiteral("256 GB/s"));
    QVERIFY(memory().pool.has_value());
    QVERIFY(form.editor(switches) != nullptr);
    QCOMPARE(text_of(prefix + QStringLiteral("pool.node_link_bandwidth")), QString());  // 0: not given yet
    QCOMPARE(text_of(prefix + QStringLiteral("pool.chunk")), QStringLiteral("1 MiB"));  // the default
    form.enter(switches, QStringLiteral("16"));
    form.enter(prefix + QStringLiteral("pool.node_link_bandwidth"), QStringLiteral("100 GB/s"));
    form.enter(prefix + QStringLiteral("pool.remote_groups"), QStringLiteral("256"));
    form.enter(prefix + QStringLiteral("pool.remote_group_bandwidth"), QStringLiteral("100 GB/s"));
    form.enter(prefix + QStringLiteral("pool.group_capacity"), QStringLiteral("1 TiB"));
    form.enter(prefix + QStringLiteral("pool.in_switch_collectives"), QStringLiteral("true"));
    const Validation complete = validate(document.scenario());
    QVERIFY2(complete.ok(), complete.ok() ? "" : complete.diagnostics.front().to_string().c_str());
    const parasight::MemoryPool expected{256e9, 16, 100e9, 256, 100e9, 1024.0 * 1024 * 1024 * 1024,
                                         1024.0 * 1024, 0.0, true};
    QVERIFY(*memory().pool == expected);
    // Emptying a later field leaves the pool with that number not given; emptying the fabric removes the pool and
    // its fields.
    form.enter(prefix + QStringLiteral("pool.group_capacity"), QString());
    QVERIFY(memory().pool.has_value());
    QCOMPARE(memory().pool->group_capacity_bytes, 0.0);
    QCOMPARE(QString::fromStdString(validate(document.scenario()).diagnostics.front().path),
             prefix + QStringLiteral("pool.group_capacity"));
    form.enter(fabric, QString());
    QVERIFY(!memory().pool.has_value());
    QVERIFY(form.editor(switches) == nullptr);
    // Every edit is one undo step, but successive edits of one field merge into one (the GPUs a node's two): 1 + 3 + 9.
    QCOMPARE(document.undoStack()->count(), 13);
}

// fp8 GEMMs' efficiency is read by fp8 training only: the field is there while training.dtype is fp8, empty while not
// given (the file leaves the key out: fp8 GEMMs at matmul_efficiency), and a value that is no number is refused at
// the field with what to write.
void TestScenarioForm::fp8GemmEfficiencyAppearsWithFp8Training() {
    ScenarioDocument document;
    QVERIFY(open_small_pipeline(document));
    ScenarioForm form(document);
    QVERIFY(show_scrolling(form));
    const QString path = QStringLiteral("cluster.device.fp8_matmul_efficiency");
    QVERIFY(form.editor(path) == nullptr);
    form.enter(QStringLiteral("training.dtype"), QStringLiteral("fp8"));
    auto* editor = qobject_cast<QLineEdit*>(form.editor(path));
    QVERIFY(editor != nullptr);
    QVERIFY(editor->text().isEmpty());
    QCOMPARE(editor->placeholderText(), QStringLiteral("empty: as bf16's"));
    form.enter(path, QStringLiteral("0.624"));
    QCOMPARE(document.scenario().cluster.device.fp8_matmul_efficiency, 0.624);
    QCOMPARE(qobject_cast<QLineEdit*>(form.editor(path))->text(), QStringLiteral("0.624"));
    form.enter(path, QStringLiteral("fast"));
    QCOMPARE(form.message(path), path + QStringLiteral(" must be a number (or empty: as bf16's), not 'fast'"));
    QCOMPARE(document.scenario().cluster.device.fp8_matmul_efficiency, 0.624);
    form.enter(path, QString());
    QCOMPARE(document.scenario().cluster.device.fp8_matmul_efficiency, 0.0);
    form.enter(QStringLiteral("training.dtype"), QStringLiteral("bf16"));
    QVERIFY(form.editor(path) == nullptr);
}

// The host's launch floor: the device's eager kernel_launch while training.cuda_graphs is off, its graph_kernel_launch
// while it is on — each empty while not given (no floor; the file leaves the key out), a time with its unit, and text
// that is no time refused at the field.
void TestScenarioForm::kernelLaunchFollowsCudaGraphs() {
    ScenarioDocument document;
    QVERIFY(open_small_pipeline(document));
    ScenarioForm form(document);
    QVERIFY(show_scrolling(form));
    const QString eager = QStringLiteral("cluster.device.kernel_launch");
    const QString graph = QStringLiteral("cluster.device.graph_kernel_launch");
    QVERIFY(form.editor(graph) == nullptr);
    auto* editor = qobject_cast<QLineEdit*>(form.editor(eager));
    QVERIFY(editor != nullptr);
    QVERIFY(editor->text().isEmpty());
    QCOMPARE(editor->placeholderText(), QStringLiteral("empty: no launch floor"));
    form.enter(eager, QStringLiteral("40.53 us"));
    QCOMPARE(document.scenario().cluster.device.kernel_launch_s, 40.53e-6);
    QCOMPARE(qobject_cast<QLineEdit*>(form.editor(eager))->text(), QStringLiteral("40.53 us"));
    form.enter(eager, QStringLiteral("fast"));
    QVERIFY(form.message(eager).startsWith(eager + QStringLiteral(": ")));
    QCOMPARE(document.scenario().cluster.device.kernel_launch_s, 40.53e-6);
    form.enter(QStringLiteral("training.cuda_graphs"), QStringLiteral("true"));
    QVERIFY(form.editor(eager) == nullptr);
    QVERIFY(qobject_cast<QLineEdit*>(form.editor(graph))->text().isEmpty());
    form.enter(graph, QStringLiteral("850 ns"));
    QCOMPARE(document.scenario().cluster.device.graph_kernel_launch_s, 850e-9);
    form.enter(graph, QString());
    QCOMPARE(document.scenario().cluster.device.graph_kernel_launch_s, 0.0);
    QCOMPARE(document.scenario().cluster.device.kernel_launch_s, 40.53e-6);
}

// Ctrl+Z in a field undid only the field's own text (QLineEdit's undo), which leaving the field then committed as a new
// edit. One undo model: Ctrl+Z first drops what was typed and not yet committed, then undoes the document's edits;
// nothing is committed on the way.
void TestScenarioForm::aStackSetsItsBehavioursInOneEdit() {
    // The default scenario (no stack; unfused attention and tp_overlap backward written out, bf16) set to
    // megatron-core: unfused attention differs from the defaults, so it was set apart and stays; fp32_gradients was at
    // the default (false) and takes megatron-core's for bf16 (true). One undo step takes it all back.
    ScenarioDocument document;
    MainWindow scratch;
    open_default(scratch);
    const Scenario before = scratch.document().scenario();
    document.edit(QStringLiteral("start"), QString(), [&](Scenario& s) { s = before; });
    document.undoStack()->clear();
    ScenarioForm form(document);
    form.enter(QStringLiteral("training.stack"), QStringLiteral("megatron-core"));
    const Scenario& after = document.scenario();
    QCOMPARE(after.training.stack, parasight::TrainingStack::megatron_core);
    QCOMPARE(after.training.attention, before.training.attention);
    QVERIFY(!before.training.fp32_gradients && after.training.fp32_gradients);
    QCOMPARE(document.undoStack()->count(), 1);
    auto* box = qobject_cast<QCheckBox*>(form.editor(QStringLiteral("training.fp32_gradients")));
    QVERIFY(box != nullptr && box->isChecked());
    document.undoStack()->undo();
    QVERIFY(document.scenario() == before);
}

void TestScenarioForm::undoInAFieldIsTheDocumentsUndo() {
    MainWindow window;
    QVERIFY(show_default(window, QSize(1400, 900)));
    ScenarioDocument& document = window.document();
    ScenarioForm* form = window.scenarioForm();
    form->enter(QStringLiteral("model.layers"), QStringLiteral("48"));  // one committed edit: 96 → 48
    QCOMPARE(document.undoStack()->count(), 1);
    auto* layers = qobject_cast<QLineEdit*>(form->editor(QStringLiteral("model.layers")));
    layers->setFocus();
    QTRY_VERIFY(layers->hasFocus());
    layers->selectAll();
    QTest::keyClicks(layers, QStringLiteral("12"));  // typed, not committed
    QCOMPARE(layers->text(), QStringLiteral("12"));
    QTest::keyClick(layers, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(layers->text(), QStringLiteral("48"));  // the typing dropped
    QCOMPARE(document.scenario().model.layers, 48);
    QCOMPARE(document.undoStack()->index(), 1);
    QTest::keyClick(layers, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(document.scenario().model.layers, 96);  // the document's edit undone
    QCOMPARE(layers->text(), QStringLiteral("96"));
    QCOMPARE(document.undoStack()->index(), 0);
    // Redo too, and leaving the field commits nothing new.
    QTest::keyClick(layers, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(document.scenario().model.layers, 48);
    window.scenarioForm()->editor(QStringLiteral("model.hidden"))->setFocus();
    QTRY_VERIFY(!layers->hasFocus());
    QCOMPARE(document.undoStack()->count(), 1);
    QCOMPARE(document.undoStack()->index(), 1);
}

// A new user met γ, efficiency, step latency, flat_ring and TP overlap with nothing to say what they are: every field
// of every kind of scenario explains itself on hover, a problem first when it has one.
void TestScenarioForm::everyFieldSaysWhatItMeans_data() {
    QTest::addColumn<QString>("preset");
    QTest::newRow("transformer (GPT-3 on 1024 A100s)") << QStringLiteral("default");
    QTest::newRow("CNN (ResNet-50)") << QStringLiteral("resnet50-abci");
    QTest::newRow("mixture of experts") << QStringLiteral("llama3-405b-16k");
}

void TestScenarioForm::everyFieldSaysWhatItMeans() {
    QFETCH(QString, preset);
    const parasight::Preset* found = find_preset(PresetKind::scenario, preset.toStdString());
    QVERIFY(found != nullptr);
    ScenarioDocument document;
    Diagnostics problems;
    QVERIFY(document.openText(found->text, std::string(found->file), problems));
    ScenarioForm form(document);
    for (const ScenarioField& field : scenario_fields(document.scenario())) {
        QWidget* editor = form.editor(field.path);
        QVERIFY(editor != nullptr);
        QVERIFY2(!editor->toolTip().isEmpty(), qPrintable(field.path));
    }
    const auto tip = [&](const QString& path) { return form.editor(path)->toolTip(); };
    QVERIFY(tip(QStringLiteral("simulation.overlap_slowdown")).startsWith(QStringLiteral("γ (Proteus)")));
    QVERIFY(tip(QStringLiteral("cluster.topology[0].efficiency")).startsWith(QStringLiteral("Efficiency: ")));
    QVERIFY(tip(QStringLiteral("cluster.topology[0].step_latency")).startsWith(QStringLiteral("Step latency: ")));
    QVERIFY(tip(QStringLiteral("parallelism.tp_overlap")).startsWith(QStringLiteral("TP overlap — ")));
    if (form.editor(QStringLiteral("cluster.multi_dimension_collectives")) != nullptr) {
        QVERIFY(tip(QStringLiteral("cluster.multi_dimension_collectives")).contains(QStringLiteral("flat_ring")));
    }
    // A problem comes first, the meaning after it.
    form.enter(QStringLiteral("simulation.collective_chunks"), QStringLiteral("0"));
    const QString with_problem = tip(QStringLiteral("simulation.collective_chunks"));
    QVERIFY2(with_problem.startsWith(QStringLiteral("simulation.collective_chunks must be between 1 and 4096")),
             qPrintable(with_problem));
    QVERIFY(with_problem.endsWith(QStringLiteral("to pipeline across dimensions (ASTRA-sim 2.0)")));
}

QTEST_MAIN(TestScenarioForm)
#include "test_scenario_form.moc"
