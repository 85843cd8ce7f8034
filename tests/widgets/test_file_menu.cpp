// File menu work beyond open and save (widgets/document/): a new scenario from every bundled preset, and the recent
// files list. Headless (offscreen).

#include "document/preset_scenario.h"
#include "document/recent_files.h"
#include "main_window/main_window.h"
#include "main_window/open_file_page.h"
#include "problems/problem_list_model.h"
#include "topology/topology_page.h"

#include "open_file.h"

#include "scenario_file/preset_specs.h"
#include "validation/validate.h"

#include <QAction>
#include <QTimer>
#include <QFileInfo>
#include <QFileDialog>
#include <QApplication>
#include <QFile>
#include <QMenu>
#include <QTemporaryDir>
#include <QSignalSpy>
#include <QListWidget>
#include <QTabWidget>
#include <QTest>

#include <vector>

using parasight::Diagnostics;
using parasight::ParallelAxis;
using parasight::Preset;
using parasight::PresetKind;
using parasight::Scenario;
using parasight::gui::MainWindow;
using parasight::gui::RecentFiles;

class TestFileMenu : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void everyPresetOpensAsAValidScenario_data();
    void everyPresetOpensAsAValidScenario();
    void recentFilesAreNewestFirstAndBounded();
    void openRecentOpensAndForgetsWhatIsGone();
    void saveAsAddsTheSuffixTheOpenFilterShows();
    void importsPeerFiles_data();
    void importsPeerFiles();
};

void TestFileMenu::initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("ParaSight tests"));
    QCoreApplication::setApplicationName(QStringLiteral("test_file_menu"));
}

void TestFileMenu::init() { RecentFiles::clear(); }

void TestFileMenu::everyPresetOpensAsAValidScenario_data() {
    QTest::addColumn<int>("index");  // in all_presets()
    // The layout the new scenario gets. The default's is tp 8 · pp 16 with dp the rest, batch 1536; where the new
    // part does not allow it, the largest powers of two that do (document/preset_scenario.h).
    QTest::addColumn<int>("tp");
    QTest::addColumn<int>("pp");
    QTest::addColumn<int>("dp");
    QTest::addColumn<qint64>("globalBatch");
    struct Layout {
        const char* id;
        int tp, pp, dp;
        qint64 global_batch;
    };
    const Layout changed[] = {
        // 24 layers: pp 16 does not divide them, pp 8 does (3 each); 16 heads take tp 8; 1024 / 64 = dp 16.
        {"bert-large", 8, 8, 16, 1536},
        {"gpt2-medium", 8, 8, 16, 1536},  // 24 layers, 16 heads, as BERT-large
        // 12 heads and 12 layers: tp 4 and pp 4 are the largest powers of two dividing them; 1024 / 16 = dp 64.
        {"gpt2-small", 4, 4, 64, 1536},
        {"gpt2-xl", 1, 16, 64, 1536},  // 25 heads: no tp; 48 layers split 16 ways; 1024 / 16 = 64
        {"llama3-405b", 8, 2, 64, 1536},  // 126 = 2 x 63 layers: pp 2; 128 heads, tp 8; 1024 / 16 = 64
        // A CNN: no tensor parallelism, no recompute; its 56 layers (stem conv and pool, 16 bottlenecks of three
        // convs, 4 projections, pool, fc) = 8 x 7 split 8 ways, not 16; 1024 / 8 = dp 128.
        {"resnet50", 1, 8, 128, 1536},
        // 21 layers (13 conv, 5 pool, 3 fc): no pp divides them; dp 1024 cannot share 1536, so 2048.
        {"vgg16", 1, 1, 1024, 2048},
        // Other clusters: tp 8 · pp 16 kept, dp = devices / 128.
        {"astra-conv3d", 8, 16, 4, 1536},  // 512 NPUs
        {"astra-conv4d", 8, 16, 4, 1536},
        {"astra-w1d-350", 8, 16, 4, 1536},
        {"astra-w1d-500", 8, 16, 4, 1536},
        {"astra-w1d-600", 8, 16, 4, 1536},
        {"astra-w2d", 8, 16, 4, 1536},
        {"dgx-h100-16384", 8, 16, 128, 1536},
        {"tpu-v4-4096", 8, 16, 32, 1536},
        {"llama3-405b-16k", 8, 16, 128, 2048},  // the scenario as its file gives it: 16384 H100, batch 2048
        {"pipeline-gpipe", 1, 4, 1, 8},         // 4 A100s as 4 stages, 8 micro-batches of 1
        {"pipeline-1f1b", 1, 4, 1, 8},
        {"pipeline-balanced", 1, 4, 1, 64},  // 4 stages of 13/13/13/9 layers, 64 micro-batches of 1
        {"pipeline-interleaved", 1, 4, 1, 16},  // 4 stages of 3 chunks, 16 micro-batches of 1
        {"pipeline-zb-h1", 1, 4, 1, 16},
        {"resnet50-abci", 1, 1, 64, 256},  // 64 V100s, data parallel, ResNet-50's batch of 256
        {"bert-large-dp8", 1, 1, 8, 64},   // 8 A100s, data parallel
        {"bert-large-dp8-delay", 1, 1, 8, 64},  // the same, each dp all-reduce 2 ms longer
        {"moe-1t-hiermem", 1, 1, 1, 256},  // 256 NPUs in expert parallelism (ep 256), one sequence each
        {"moe-1t-zero-infinity", 1, 1, 1, 256},  // the same
    };
    for (std::size_t i = 0; i < parasight::all_presets().size(); ++i) {
        const Preset& preset = parasight::all_presets()[i];
        if (preset.kind == PresetKind::lesson) continue;  // not a scenario: test_lessons reads them
        Layout layout{"", 8, 16, 8, 1536};  // the default's, on its 1024 A100s
        for (const Layout& entry : changed) {
            if (preset.id == entry.id) layout = entry;
        }
        const std::string name = std::string(parasight::name_of(preset.kind, parasight::preset_kind_names)) + " " +
                                 std::string(preset.id);
        QTest::newRow(name.c_str()) << static_cast<int>(i) << layout.tp << layout.pp << layout.dp
                                    << layout.global_batch;
    }
}

void TestFileMenu::everyPresetOpensAsAValidScenario() {
    QFETCH(int, index);
    QFETCH(int, tp);
    QFETCH(int, pp);
    QFETCH(int, dp);
    QFETCH(qint64, globalBatch);
    const Preset& preset = parasight::all_presets()[static_cast<std::size_t>(index)];
    Diagnostics problems;
    const std::optional<Scenario> scenario = parasight::gui::scenario_from_preset(preset, problems);
    QVERIFY(scenario.has_value());
    QVERIFY(problems.empty());
    // Every bundled preset gives a scenario that is simulated as it opens, never a list of problems.
    const parasight::Validation validation = parasight::validate(*scenario);
    QVERIFY2(validation.scenario.has_value(),
             validation.diagnostics.empty() ? "" : validation.diagnostics.front().to_string().c_str());
    const Scenario& value = validation.scenario->value();
    switch (preset.kind) {
        case PresetKind::model:
            QVERIFY(value.model == parasight::model_preset_spec(preset.id).value());
            break;
        case PresetKind::cluster:
            QVERIFY(value.cluster == parasight::cluster_preset_spec(preset.id).value());
            QCOMPARE(value.parallelism.derived_axis, std::optional<ParallelAxis>(ParallelAxis::dp));
            break;
        case PresetKind::device:
            QVERIFY(value.cluster.device == parasight::device_preset_spec(preset.id).value());
            break;
        case PresetKind::scenario:
        case PresetKind::lesson:
            break;
    }
    QCOMPARE(value.parallelism.tp, tp);
    QCOMPARE(value.parallelism.pp, pp);
    QCOMPARE(value.parallelism.dp, dp);
    QCOMPARE(value.training.global_batch, globalBatch);
    // The V100 has no bf16 peak (fp32 and fp16 only): its scenarios train in fp16; every other one keeps bf16.
    const bool v100 = preset.id == "v100" || preset.id == "resnet50-abci";
    QCOMPARE(value.training.dtype, v100 ? parasight::Dtype::fp16 : parasight::Dtype::bf16);
}

void TestFileMenu::recentFilesAreNewestFirstAndBounded() {
    QTemporaryDir directory;
    QVERIFY(directory.isValid());
    const QString first = directory.filePath(QStringLiteral("first.yaml"));
    const QString second = directory.filePath(QStringLiteral("second.yaml"));
    RecentFiles::add(first);
    RecentFiles::add(second);
    QCOMPARE(RecentFiles::files(), (QStringList{second, first}));
    RecentFiles::add(first);  // again: moves to the front, not listed twice
    QCOMPARE(RecentFiles::files(), (QStringList{first, second}));
    for (int i = 0; i < 12; ++i) RecentFiles::add(directory.filePath(QStringLiteral("n%1.yaml").arg(i)));
    // Twelve more: the ten newest are kept, n11 first; first and second have fallen off.
    const QStringList files = RecentFiles::files();
    QCOMPARE(files.size(), RecentFiles::max_files);
    QCOMPARE(files.front(), directory.filePath(QStringLiteral("n11.yaml")));
    QCOMPARE(files.back(), directory.filePath(QStringLiteral("n2.yaml")));
    RecentFiles::remove(directory.filePath(QStringLiteral("n5.yaml")));
    QCOMPARE(RecentFiles::files().size(), RecentFiles::max_files - 1);
    QVERIFY(!RecentFiles::files().contains(directory.filePath(QStringLiteral("n5.yaml"))));
}

void TestFileMenu::openRecentOpensAndForgetsWhatIsGone() {
    QTemporaryDir directory;
    QVERIFY(directory.isValid());
    MainWindow window;
    window.setAutoRun(false);
    window.openDefaultScenario();
    const QString kept = directory.filePath(QStringLiteral("kept.yaml"));
    const QString gone = directory.filePath(QStringLiteral("gone.yaml"));
    QVERIFY(!window.document().saveAs(gone));
    QVERIFY(!window.document().saveAs(kept));
    QVERIFY(parasight::testing::open_and_wait(window, gone));
    QVERIFY(parasight::testing::open_and_wait(window, kept));
    QCOMPARE(RecentFiles::files(), (QStringList{kept, gone}));

    // The menu lists them newest first, named by file then folder.
    Q_EMIT window.recentMenu()->aboutToShow();
    const QList<QAction*> actions = window.recentMenu()->actions();
    QVERIFY(actions.size() >= 2);
    QCOMPARE(actions[0]->data().toString(), kept);
    QCOMPARE(actions[1]->data().toString(), gone);
    QVERIFY2(actions[0]->text().startsWith(QStringLiteral("&1 kept.yaml — ")), qPrintable(actions[0]->text()));

    // A file deleted since is not opened (the document stays), and is forgotten.
    QVERIFY(QFile::remove(gone));
    QSignalSpy opened(&window, &MainWindow::fileOpened);
    actions[1]->trigger();
    QVERIFY(opened.wait(30000));
    QCOMPARE(opened.last().at(1).toBool(), false);
    QCOMPARE(window.document().filePath(), kept);
    QCOMPARE(RecentFiles::files(), (QStringList{kept}));
    // The page in place of the tabs says why, with the file's own problem only.
    QVERIFY(window.openFilePage() != nullptr);
    QCOMPARE(window.openFilePage()->problems()->rowCount(), 1);
    QVERIFY2(window.openFilePage()->problems()->index(0, 0).data().toString().contains(QStringLiteral("does not exist")),
             qPrintable(window.openFilePage()->problems()->index(0, 0).data().toString()));
}

// Save As of "plan" wrote a file named plan, which the Open dialog's filter (*.yaml *.yml) then hid.
void TestFileMenu::saveAsAddsTheSuffixTheOpenFilterShows() {
    QTemporaryDir directory;
    QVERIFY(directory.isValid());
    MainWindow window;
    window.setAutoRun(false);
    window.openDefaultScenario();
    QAction* save_as = nullptr;
    for (QAction* action : window.findChildren<QAction*>()) {
        if (action->text() == QStringLiteral("Save &As…")) save_as = action;
    }
    QVERIFY(save_as != nullptr);
    const QString typed = directory.filePath(QStringLiteral("plan"));
    QTimer::singleShot(0, [typed] {
        auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        if (dialog == nullptr) return;
        dialog->selectFile(typed);
        QMetaObject::invokeMethod(dialog, "accept");
    });
    save_as->trigger();
    QCOMPARE(window.document().filePath(), directory.filePath(QStringLiteral("plan.yaml")));
    QVERIFY(QFileInfo::exists(directory.filePath(QStringLiteral("plan.yaml"))));
    QVERIFY(!QFileInfo::exists(typed));
}

void TestFileMenu::importsPeerFiles_data() {
    QTest::addColumn<QString>("tool");       // astra-sim or calculon: File → Import's entry and the data folder
    QTest::addColumn<QStringList>("files");  // under tests/data/interop/<tool>, in the order picked
    QTest::addColumn<std::vector<int>>("sizes");  // the imported topology's; empty: refused
    QTest::addColumn<QString>("message");  // the status bar's start, or the first problem's
    QTest::addColumn<int>("notes");        // what the files say that ParaSight models otherwise

    QTest::newRow("ASTRA-sim network and system")
        << "astra-sim" << QStringList{"system/hgx_h100_32gpu.json", "network/hgx_h100_32gpu.yml"}
        << std::vector<int>{8, 4}
        << "Imported hgx_h100_32gpu.yml from ASTRA-sim, unsaved; 6 settings modelled otherwise than in ASTRA-sim "
           "(docs/interop.md)"
        << 6;
    QTest::newRow("ASTRA-sim network alone")
        << "astra-sim" << QStringList{"network/table3-2_8_8_4.yml"} << std::vector<int>{2, 8, 8, 4}
        << "Imported table3-2_8_8_4.yml from ASTRA-sim, unsaved (conversions: docs/interop.md)" << 0;
    QTest::newRow("tbd, as ASTRA-sim ships it")
        << "astra-sim" << QStringList{"network/dgx_v100_8gpu.yml"} << std::vector<int>{}
        << "dgx_v100_8gpu.yml:11:14: bandwidth[0] must be a number, not 'tbd'" << 0;
    QTest::newRow("an ASTRA-sim system file alone")
        << "astra-sim" << QStringList{"system/hgx_h100_32gpu.json"} << std::vector<int>{}
        << "choose ASTRA-sim's network file (.yml), with its system file (.json)" << 0;
    QTest::newRow("two ASTRA-sim networks")
        << "astra-sim" << QStringList{"network/Ring_8npus.yml", "network/HGX-H100-validated.yml"} << std::vector<int>{}
        << "HGX-H100-validated.yml: a second network file" << 0;
    QTest::newRow("Calculon's files in any order")
        << "calculon"
        << QStringList{"examples/3072_t4_p64_d12_mbs4_full.json", "models/gpt3-175B.json", "systems/a100_80g.json"}
        << std::vector<int>{4, 768}
        << "Imported gpt3-175B.json from Calculon, unsaved; 17 settings modelled otherwise than in Calculon "
           "(docs/interop.md)"
        << 17;
    QTest::newRow("two Calculon models")
        << "calculon" << QStringList{"models/gpt3-175B.json", "models/megatron-22B.json", "systems/a100_80g.json"}
        << std::vector<int>{} << "megatron-22B.json: a second model file: choose one of each" << 0;
    QTest::newRow("no Calculon execution")
        << "calculon" << QStringList{"models/gpt3-175B.json", "systems/a100_80g.json"} << std::vector<int>{}
        << "choose Calculon's three files: a system, a model and an execution" << 0;
    QTest::newRow("an ASTRA-sim file for Calculon")
        << "calculon" << QStringList{"models/gpt3-175B.json", "../astra-sim/system/Ring_4chunks.json"}
        << std::vector<int>{} << "Ring_4chunks.json: not one of Calculon's files" << 0;
}

void TestFileMenu::importsPeerFiles() {
    QFETCH(QString, tool);
    QFETCH(QStringList, files);
    QFETCH(std::vector<int>, sizes);
    QFETCH(QString, message);
    QFETCH(int, notes);
    MainWindow window;
    window.setAutoRun(false);
    window.openDefaultScenario();
    const Scenario before = window.document().scenario();
    QStringList paths;
    for (const QString& file : files) {
        paths << QStringLiteral(PARASIGHT_SOURCE_DIR "/tests/data/interop/") + tool + QLatin1Char('/') + file;
    }
    // File → Import offers it.
    const bool astra_sim = tool == QStringLiteral("astra-sim");
    const QString entry = astra_sim ? QStringLiteral("&ASTRA-sim Network…") : QStringLiteral("&Calculon Files…");
    bool offered = false;
    for (QAction* action : window.findChildren<QAction*>()) offered |= action->text() == entry;
    QVERIFY(offered);
    const bool imported = astra_sim ? window.importAstraSim(paths) : window.importCalculon(paths);
    QCOMPARE(imported, !sizes.empty());
    if (!imported) {
        QCOMPARE(window.document().scenario(), before);
        QVERIFY(window.problemList()->rowCount() > 0);
        const QString first = window.problemList()->index(0, 0).data().toString();
        QVERIFY2(first.contains(message), qPrintable(first));
        return;
    }
    // A new, unsaved document with the files' dimensions, drawn on the Topology tab.
    QVERIFY(window.document().filePath().isEmpty());
    std::vector<int> got;
    for (const auto& dimension : window.document().scenario().cluster.topology) got.push_back(dimension.size);
    QCOMPARE(got, sizes);
    auto* tabs = window.findChild<QTabWidget*>();
    QCOMPARE(MainWindow::tabNames().at(tabs->currentIndex()), QStringLiteral("topology"));
    // The canvas's list of dimensions, innermost first: "0 · switch of 8".
    QListWidget* list = window.topologyPage()->dimensionList();
    QCOMPARE(list->count(), static_cast<int>(sizes.size()));
    for (int d = 0; d < list->count(); ++d) {
        QVERIFY2(list->item(d)->text().startsWith(QStringLiteral("%1 · ").arg(d)) &&
                     list->item(d)->text().endsWith(QStringLiteral(" of %1").arg(sizes[static_cast<std::size_t>(d)])),
                 qPrintable(list->item(d)->text()));
    }
    QVERIFY2(window.statusText().startsWith(message), qPrintable(window.statusText()));
    QCOMPARE(window.importNotes().size(), notes);
}

QTEST_MAIN(TestFileMenu)
#include "test_file_menu.moc"
