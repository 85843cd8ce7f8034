// The Topology tab (docs/gui.md): the drawing of ring, fully connected, switch and multi-dimensional topologies with
// NPU and link counts worked out by hand; folding large topologies; every edit of the canvas going through the
// document's undo stack; the groups coloured for a clicked NPU matching the core's ParallelLayout for several
// mappings; the mismatch banner with the loader's reason; a non-blank picture of the tab.

#include "small_pipeline_document.h"

#include "document/scenario_document.h"
#include "scenario_form/scenario_form.h"
#include "style/activity_colors.h"
#include "style/quantity_text.h"
#include "topology/collective_probe_box.h"
#include "topology/dimension_palette_button.h"
#include "topology/topology_canvas.h"
#include "topology/topology_drawing.h"
#include "topology/topology_page.h"

#include "presets/preset_library.h"
#include "scenario_file/scenario_loader.h"
#include "simulation/simulate.h"

#include <QDragEnterEvent>
#include <QImage>
#include <QMimeData>
#include <QProcess>
#include <QTemporaryDir>
#include <QComboBox>
#include <QLineEdit>
#include <QListWidget>
#include <QSet>
#include <QTest>

#include <map>

using namespace parasight;
using namespace parasight::gui;
using parasight::testing::open_small_pipeline;
using parasight::testing::simulated_result;

namespace {

Dimension dimension(DimensionKind kind, int size) {
    Dimension d;
    d.kind = kind;
    d.size = size;
    d.bandwidth_Bps = 100e9;
    d.latency_s = 1e-6;
    return d;
}

// Physical links a drawing stands for, by dimension.
std::map<std::size_t, std::int64_t> links_by_dimension(const TopologyDrawing& drawing) {
    std::map<std::size_t, std::int64_t> links;
    for (const DrawnLink& link : drawing.links) links[link.dimension] += link.links;
    return links;
}

std::map<std::size_t, int> lines_by_dimension(const TopologyDrawing& drawing) {
    std::map<std::size_t, int> lines;
    for (const DrawnLink& link : drawing.links) ++lines[link.dimension];
    return lines;
}

using Dimensions = std::vector<Dimension>;
using Counts = std::map<std::size_t, std::int64_t>;
using Lines = std::map<std::size_t, int>;

// tests/data/cli/small_pipeline.yaml opened in a document: 8 NPUs, two switches of 4 joined by a switch of 2,
// tp 2 · dp 2 · pp 2.
}  // namespace

class TestTopologyPage : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aCollectiveIsTimedOnTheCluster_data();
    void aCollectiveIsTimedOnTheCluster();
    void drawingsHaveTheirNpusAndLinks_data();
    void drawingsHaveTheirNpusAndLinks();
    void largeTopologiesStartFolded();
    void largeMeshesStartFolded();
    void aFrameIsAsWideAsItsLabel();
    void canvasEditsAreUndoable();
    void theMemorySystemIsDrawnUnderTheTopology();
    void aPaletteButtonDroppedOnTheCanvasAddsItsDimension();
    void theInspectorEditsTheChosenDimension();
    void groupsAreColouredAsTheCoreLaysThemOut_data();
    void groupsAreColouredAsTheCoreLaysThemOut();
    void aMismatchShowsTheLoadersReason();
    void aTopologyThatCannotBeDrawnIsNotDrawn_data();
    void aTopologyThatCannotBeDrawnIsNotDrawn();
    void thePictureIsDrawn();
    void aRunShadesTheLinksAndNamesBottlenecks();
    void aClusterDrawnFromScratchSavesAValidFile();
};

void TestTopologyPage::drawingsHaveTheirNpusAndLinks_data() {
    QTest::addColumn<Dimensions>("dimensions");
    QTest::addColumn<int>("npus");
    QTest::addColumn<int>("blocks");
    QTest::addColumn<int>("switches");
    QTest::addColumn<Lines>("lines");  // drawn, by dimension
    QTest::addColumn<Counts>("links");  // physical, by dimension
    using K = DimensionKind;
    // A ring of n ≥ 3 has n links; a ring of 2 is one link.
    QTest::newRow("ring of 8") << Dimensions{dimension(K::ring, 8)} << 8 << 1 << 0 << Lines{{0, 8}} << Counts{{0, 8}};
    QTest::newRow("ring of 2") << Dimensions{dimension(K::ring, 2)} << 2 << 1 << 0 << Lines{{0, 1}} << Counts{{0, 1}};
    // Fully connected: n(n-1)/2 = 4·3/2 = 6.
    QTest::newRow("fully connected 4") << Dimensions{dimension(K::fully_connected, 4)} << 4 << 1 << 0 << Lines{{0, 6}}
                                       << Counts{{0, 6}};
    // A switch: one port per member.
    QTest::newRow("switch of 8") << Dimensions{dimension(K::switch_fabric, 8)} << 8 << 1 << 1 << Lines{{0, 8}}
                                 << Counts{{0, 8}};
    // 3-D: switch 4 × ring 4 × fully connected 2 = 32 NPUs. Dimension 0: 8 switches of 4 ports, 32 links.
    // Dimension 1: 2 rings of 4 nodes, 4 lines each, each line the 4 links of a node's NPUs: 8 lines, 32 links
    // (= 32 / 4 rings of 4 NPUs × 4). Dimension 2: 1 pair of racks, 1 line for 16 links (= 32 / 2 pairs × 1).
    // Frames: 8 nodes + 2 racks + 1 = 11.
    QTest::newRow("3-D") << Dimensions{dimension(K::switch_fabric, 4), dimension(K::ring, 4),
                                       dimension(K::fully_connected, 2)}
                         << 32 << 11 << 8 << Lines{{0, 32}, {1, 8}, {2, 1}} << Counts{{0, 32}, {1, 32}, {2, 16}};
}

void TestTopologyPage::drawingsHaveTheirNpusAndLinks() {
    QFETCH(Dimensions, dimensions);
    QFETCH(int, npus);
    QFETCH(int, blocks);
    QFETCH(int, switches);
    QFETCH(Lines, lines);
    QFETCH(Counts, links);
    const std::vector<bool> unfolded = default_unfolded(dimensions);
    QVERIFY(std::all_of(unfolded.begin(), unfolded.end(), [](bool u) { return u; }));  // at most 256: all drawn
    const TopologyDrawing drawing = draw_topology(dimensions, unfolded);
    QCOMPARE(static_cast<int>(drawing.npus.size()), npus);
    QCOMPARE(static_cast<int>(drawing.blocks.size()), blocks);
    QCOMPARE(static_cast<int>(drawing.switches.size()), switches);
    QCOMPARE(lines_by_dimension(drawing), lines);
    QCOMPARE(links_by_dimension(drawing), links);
    QCOMPARE(drawn_line_count(dimensions, unfolded), static_cast<std::int64_t>(drawing.links.size()));
    // Every NPU once, each inside the picture and apart from the others.
    QSet<qint64> ids;
    for (const DrawnNpu& npu : drawing.npus) {
        ids.insert(npu.npu);
        QVERIFY(drawing.bounds.contains(npu.center));
        for (const DrawnNpu& other : drawing.npus) {
            if (other.npu == npu.npu) continue;
            QVERIFY(QLineF(npu.center, other.center).length() >= 2.0 * npu_radius);
        }
    }
    QCOMPARE(ids.size(), npus);
}

// A folded dimension's frame holds one member: as narrow as a node, it cut its label ("Dim 1 · switch ×128, 1 shown ·
// 25 GB/…"). Given its label's width, each frame is at least that plus its insets, the member centred in it.
void TestTopologyPage::aFrameIsAsWideAsItsLabel() {
    const Dimensions cluster{dimension(DimensionKind::switch_fabric, 8), dimension(DimensionKind::switch_fabric, 128)};
    const std::vector<bool> unfolded{true, false};
    const TopologyDrawing narrow = draw_topology(cluster, unfolded);
    const auto frame_of = [](const TopologyDrawing& drawing, std::size_t d) {
        return std::find_if(drawing.blocks.begin(), drawing.blocks.end(),
                            [d](const DrawnBlock& block) { return block.dimension == d; })->rect;
    };
    const double node_width = frame_of(narrow, 0).width();
    const double wide_label = 3.0 * node_width;
    const TopologyDrawing wide = draw_topology(cluster, unfolded, {0.0, wide_label});
    QCOMPARE(frame_of(wide, 1).width(), wide_label + 2.0 * label_inset);
    // The node inside is as it was, centred in the wider frame; the picture grew with it.
    QCOMPARE(frame_of(wide, 0).width(), node_width);
    QCOMPARE(frame_of(wide, 0).center().x(), frame_of(wide, 1).center().x());
    QCOMPARE(wide.bounds.width(), wide_label + 2.0 * label_inset);
    QCOMPARE(wide.npus.size(), narrow.npus.size());
}

void TestTopologyPage::largeTopologiesStartFolded() {
    // 16 384 NPUs: switches of 8 in rings of 16 on a switch of 128. 8 × 16 = 128 NPUs drawn at most 256; × 128
    // would be 16 384: the outer switch is folded, drawn as one rack and one spoke standing for its 128 NPUs' links.
    const Dimensions cluster{dimension(DimensionKind::switch_fabric, 8), dimension(DimensionKind::ring, 16),
                             dimension(DimensionKind::switch_fabric, 128)};
    QCOMPARE(default_unfolded(cluster), (std::vector<bool>{true, true, false}));
    const TopologyDrawing drawing = draw_topology(cluster, default_unfolded(cluster));
    QCOMPARE(drawing.npus.size(), std::size_t{128});
    QCOMPARE(links_by_dimension(drawing).at(2), std::int64_t{128});
    // Lines: 16 switches × 8 ports, 1 ring × 16, 1 spoke to the folded spine: 128 + 16 + 1.
    QCOMPARE(drawn_line_count(cluster, default_unfolded(cluster)), std::int64_t{145});
    QCOMPARE(static_cast<std::int64_t>(drawing.links.size()), std::int64_t{145});
    const auto outer = std::find_if(drawing.blocks.begin(), drawing.blocks.end(),
                                    [](const DrawnBlock& block) { return block.dimension == 2; });
    QVERIFY(outer != drawing.blocks.end());
    QCOMPARE(outer->members, 128);
    QCOMPARE(outer->shown, 1);
    // Unfolding it would draw 16 384 NPUs, past the 1 024 allowed: refused; unfolding dimension 1 alone is fine.
    TopologyCanvas canvas;
    canvas.showTopology(cluster);
    QVERIFY(!canvas.setUnfolded(2, true));
    QCOMPARE(canvas.unfolded(), (std::vector<bool>{true, true, false}));
    QVERIFY(canvas.setUnfolded(1, false));
    QCOMPARE(canvas.drawing().npus.size(), std::size_t{8});
}

void TestTopologyPage::largeMeshesStartFolded() {
    // Fully connected: n(n-1)/2 lines, at most 4 096. 64 members draw 2 016; 91 draw 91 · 90 / 2 = 4 095, the most;
    // 92 would draw 4 186 and 128 would draw 8 128: folded as opened (one member drawn, nothing to join) and not
    // unfoldable.
    const auto mesh = [](int members) { return Dimensions{dimension(DimensionKind::fully_connected, members)}; };
    QCOMPARE(default_unfolded(mesh(64)), std::vector<bool>{true});
    QCOMPARE(drawn_line_count(mesh(64), {true}), std::int64_t{2016});
    QCOMPARE(default_unfolded(mesh(91)), std::vector<bool>{true});
    QCOMPARE(default_unfolded(mesh(92)), std::vector<bool>{false});
    QCOMPARE(default_unfolded(mesh(128)), std::vector<bool>{false});
    TopologyCanvas canvas;
    canvas.showTopology(mesh(128));
    QVERIFY(canvas.drawing().links.empty());
    QVERIFY(!canvas.setUnfolded(0, true));
    QCOMPARE(canvas.drawing().npus.size(), std::size_t{1});
}

// ASTRA-sim 2.0 Table III's 2_8_8_4 (tests/data/astra/2_8_8_4.yaml): a 1 GiB all-reduce over the 512 NPUs takes
// 4392.85 us in the paper (the same figure as `parasight-cli collective`, docs/collectives.md): through dimension 1,
// FC(8) at 200 GiB/s, 896 MiB = 4.375 ms plus latency. The groups offered follow the scenario: every NPU, dp 512,
// each dimension.
void TestTopologyPage::aCollectiveIsTimedOnTheCluster_data() {
    QTest::addColumn<QString>("operation");
    QTest::addColumn<QString>("size");
    QTest::addColumn<QString>("group");  // the choice's data, as parasight-cli collective's --group
    QTest::addColumn<QString>("result");  // the first line, or the whole message
    // (Numbers and units are joined by no-break spaces, written \u00a0.)
    QTest::newRow("Table III") << "all-reduce" << "1 GiB" << "all" << QStringLiteral("1\u00a0GiB over 512 NPUs: 4.392\u00a0ms");
    // Dimension 1 alone: FC(8) direct all-reduce, 2·7/8 GiB at 200 GiB/s = 8.75 ms plus 2 steps of 0.5 us.
    QTest::newRow("dimension 1 alone") << "all-reduce" << "1 GiB" << "1" << QStringLiteral("1\u00a0GiB over 8 NPUs: 8.751\u00a0ms");
    // A reduce-scatter over dimension 0, Ring(2) at 1000 GiB/s: 1/2 GiB = 500 us, 1 step of 0.5 us.
    QTest::newRow("a reduce-scatter on the ring") << "reduce-scatter" << "1 GiB" << "0"
                                                  << QStringLiteral("1\u00a0GiB over 2 NPUs: 500.5\u00a0us");
    QTest::newRow("a buffer without a unit") << "all-reduce" << "1" << "all" << "Buffer: ";
    QTest::newRow("no buffer") << "all-reduce" << "0 GiB" << "all" << "the buffer must not be zero or negative";
}

void TestTopologyPage::aCollectiveIsTimedOnTheCluster() {
    QFETCH(QString, operation);
    QFETCH(QString, size);
    QFETCH(QString, group);
    QFETCH(QString, result);
    ScenarioDocument document;
    Diagnostics problems;
    QVERIFY(document.openFile(QStringLiteral(PARASIGHT_TEST_DATA_DIR "/astra/2_8_8_4.yaml"), problems));
    TopologyPage page(document);
    CollectiveProbeBox* probe = page.collectiveProbe();
    QStringList groups;
    for (int i = 0; i < probe->group()->count(); ++i) groups << probe->group()->itemData(i).toString();
    QCOMPARE(groups, (QStringList{"all", "dp", "0", "1", "2", "3"}));
    probe->operation()->setCurrentText(operation);
    probe->size()->setText(size);
    probe->group()->setCurrentIndex(probe->group()->findData(group));
    QVERIFY2(probe->resultText().startsWith(result), qPrintable(probe->resultText()));
    // A dimension's data is the paper's: 1024 MiB sent through dimension 0 of the whole group's all-reduce.
    if (QTest::currentDataTag() == QByteArray("Table III")) {
        QVERIFY2(probe->resultText().contains(QStringLiteral("dimension 0: ring of 2, 1\u00a0GiB sent")),
                 qPrintable(probe->resultText()));
    }
    // An edit of the cluster times again: dimension 1 twice as fast halves the bottleneck's 4.375 ms.
    if (QTest::currentDataTag() == QByteArray("dimension 1 alone")) {
        Scenario faster = document.scenario();
        faster.cluster.topology[1].bandwidth_Bps *= 2.0;
        document.openNew(faster, {});
        QVERIFY2(probe->resultText().startsWith(QStringLiteral("1\u00a0GiB over 8 NPUs: 4.376\u00a0ms")),
                 qPrintable(probe->resultText()));
    }
}

void TestTopologyPage::canvasEditsAreUndoable() {
    ScenarioDocument document;
    QVERIFY(open_small_pipeline(document));
    TopologyPage page(document);
    const Scenario before = document.scenario();
    // The palette adds a ring of 2 around the others, with the outer dimension's bandwidth and latency.
    page.addDimension(DimensionKind::ring);
    QCOMPARE(document.scenario().cluster.topology.size(), std::size_t{3});
    QCOMPARE(document.scenario().cluster.topology[2].kind, DimensionKind::ring);
    QCOMPARE(document.scenario().cluster.topology[2].size, 2);
    QCOMPARE(document.scenario().cluster.topology[2].bandwidth_Bps, 25e9);
    QCOMPARE(page.canvas()->drawing().npus.size(), std::size_t{16});
    QCOMPARE(page.dimensionList()->count(), 3);
    // Moving dimension 0 outward swaps it with dimension 1.
    page.moveDimension(0, true);
    QCOMPARE(document.scenario().cluster.topology[0].size, 2);
    QCOMPARE(document.scenario().cluster.topology[1].size, 4);
    page.removeDimension(2);
    QCOMPARE(document.scenario().cluster.topology.size(), std::size_t{2});
    // The mapping strip dragged to dp, tp, pp.
    QCOMPARE(page.mappingStrip()->count(), 3);
    QCOMPARE(page.mappingStrip()->item(0)->text(), QStringLiteral("tp 2"));
    QListWidgetItem* dp = page.mappingStrip()->takeItem(1);
    page.mappingStrip()->insertItem(0, dp);
    page.applyMappingStrip();
    QCOMPARE(document.scenario().parallelism.mapping.front(), ParallelAxis::dp);
    QCOMPARE(document.scenario().parallelism.mapping[1], ParallelAxis::tp);
    // Four edits, four undo steps, back to the file as it was.
    QCOMPARE(document.undoStack()->count(), 4);
    for (int i = 0; i < 4; ++i) document.undoStack()->undo();
    QVERIFY(document.scenario() == before);
    QCOMPARE(page.dimensionList()->count(), 2);
    QCOMPARE(page.mappingStrip()->item(0)->text(), QStringLiteral("tp 2"));
}

// tests/data/memory_system/seed-pool.yaml: host memory, NVMe and ASTRA-sim 2.0's pool (4 out-node switches, 8 remote
// memory groups) under 16 nodes of 16; the small pipeline has none, and gains a box when host memory is added.
void TestTopologyPage::theMemorySystemIsDrawnUnderTheTopology() {
    ScenarioDocument document;
    Diagnostics problems;
    QVERIFY(document.openFile(QStringLiteral(PARASIGHT_TEST_DATA_DIR "/memory_system/seed-pool.yaml"), problems));
    TopologyPage page(document);
    const QStringList tiers = page.canvas()->memoryTierTexts();
    const QStringList expected{QStringLiteral("Host memory · 1 TiB a node — 32 GB/s a GPU's link"),
                               QStringLiteral("NVMe · 15 TB a node — 25 GB/s a node, shared by its GPUs"),
                               QStringLiteral("Out-node switches ×4 — in-node fabric 125 MB/s a GPU · 250 MB/s a node link"),
                               QStringLiteral("Remote memory groups ×8 — 4 GB/s · 2 TB each")};
    QCOMPARE(tiers, expected);
    // Everything drawn lies inside the picture the exports write.
    const QRectF scene = page.canvas()->scene()->sceneRect();
    QVERIFY(scene.contains(page.canvas()->scene()->itemsBoundingRect()));

    ScenarioDocument plain;
    QVERIFY(open_small_pipeline(plain));
    TopologyPage plain_page(plain);
    QVERIFY(plain_page.canvas()->memoryTierTexts().isEmpty());
    plain.edit(QStringLiteral("add host memory"), QString(), [](Scenario& s) {
        s.cluster.memory_system.host = HostMemory{512e9, 25e9, 0.0};
    });
    QCOMPARE(plain_page.canvas()->memoryTierTexts(),
             QStringList{QStringLiteral("Host memory · 512 GB a node — 25 GB/s a GPU's link")});
    // With the CPU memory's own bandwidth (for an optimizer step on the host), the box says it too.
    plain.edit(QStringLiteral("host memory bandwidth"), QString(), [](Scenario& s) {
        s.cluster.memory_system.host->memory_bandwidth_Bps = 409.6e9;
    });
    QCOMPARE(plain_page.canvas()->memoryTierTexts(),
             QStringList{QStringLiteral("Host memory · 512 GB a node — 25 GB/s a GPU's link · 409.6 GB/s CPU memory")});
}

void TestTopologyPage::aPaletteButtonDroppedOnTheCanvasAddsItsDimension() {
    ScenarioDocument document;
    QVERIFY(open_small_pipeline(document));
    TopologyPage page(document);
    page.resize(1000, 700);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    // What dragging the Fully Connected button carries, dropped in the canvas's middle.
    QMimeData mime;
    mime.setData(QString::fromLatin1(dimension_mime_type), QByteArrayLiteral("fully_connected"));
    QWidget* area = page.canvas()->viewport();
    const QPointF middle(area->width() / 2.0, area->height() / 2.0);
    QDragEnterEvent enter(middle.toPoint(), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(area, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(middle, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(area, &drop);
    QCOMPARE(document.scenario().cluster.topology.size(), std::size_t{3});
    QCOMPARE(document.scenario().cluster.topology[2].kind, DimensionKind::fully_connected);
    QCOMPARE(document.undoStack()->count(), 1);
    // Anything else dragged in is refused.
    QMimeData text;
    text.setText(QStringLiteral("switch"));
    QDragEnterEvent other(middle.toPoint(), Qt::CopyAction, &text, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(area, &other);
    QVERIFY(!other.isAccepted());
}

void TestTopologyPage::theInspectorEditsTheChosenDimension() {
    ScenarioDocument document;
    QVERIFY(open_small_pipeline(document));
    TopologyPage page(document);
    QVERIFY(page.inspector()->editor(QStringLiteral("cluster.topology[1].bandwidth")) == nullptr);  // none chosen
    page.chooseDimension(1);
    QVERIFY(page.inspector()->editor(QStringLiteral("cluster.topology[1].bandwidth")) != nullptr);
    QVERIFY(page.inspector()->editor(QStringLiteral("cluster.topology[0].bandwidth")) == nullptr);
    QVERIFY(page.inspector()->editor(QStringLiteral("training.micro_batch")) == nullptr);
    page.inspector()->enter(QStringLiteral("cluster.topology[1].bandwidth"), QStringLiteral("50 GB/s"));
    QCOMPARE(document.scenario().cluster.topology[1].bandwidth_Bps, 50e9);
    // Drawn at once: the chosen dimension's frame says its new bandwidth.
    document.undoStack()->undo();
    QCOMPARE(document.scenario().cluster.topology[1].bandwidth_Bps, 25e9);
}

void TestTopologyPage::groupsAreColouredAsTheCoreLaysThemOut_data() {
    QTest::addColumn<QList<int>>("mapping");  // ParallelAxis values, innermost first
    QTest::addColumn<QList<int>>("tp");       // NPU 5's other group members, worked out by hand
    QTest::addColumn<QList<int>>("dp");
    QTest::addColumn<QList<int>>("pp");
    const int tp = static_cast<int>(ParallelAxis::tp);
    const int dp = static_cast<int>(ParallelAxis::dp);
    const int pp = static_cast<int>(ParallelAxis::pp);
    // [tp, dp, pp]: NPU = tp + 2·dp + 4·pp; 5 = tp 1, dp 0, pp 1: tp {4, 5}, dp {5, 7}, pp {1, 5}.
    QTest::newRow("tp, dp, pp") << QList<int>{tp, dp, pp} << QList<int>{4} << QList<int>{7} << QList<int>{1};
    // [tp, pp, dp]: NPU = tp + 2·pp + 4·dp; 5 = tp 1, pp 0, dp 1: tp {4, 5}, pp {5, 7}, dp {1, 5}.
    QTest::newRow("tp, pp, dp") << QList<int>{tp, pp, dp} << QList<int>{4} << QList<int>{1} << QList<int>{7};
    // [pp, tp, dp]: NPU = pp + 2·tp + 4·dp; 5 = pp 1, tp 0, dp 1: pp {4, 5}, tp {5, 7}, dp {1, 5}.
    QTest::newRow("pp, tp, dp") << QList<int>{pp, tp, dp} << QList<int>{7} << QList<int>{1} << QList<int>{4};
}

void TestTopologyPage::groupsAreColouredAsTheCoreLaysThemOut() {
    QFETCH(QList<int>, mapping);
    QFETCH(QList<int>, tp);
    QFETCH(QList<int>, dp);
    QFETCH(QList<int>, pp);
    ScenarioDocument document;
    QVERIFY(open_small_pipeline(document));
    std::vector<ParallelAxis> order;
    for (const int axis : mapping) order.push_back(static_cast<ParallelAxis>(axis));
    document.edit(QStringLiteral("mapping"), QString(), [&](Scenario& s) { s.parallelism.mapping = order; });
    QVERIFY(document.validated() != nullptr);
    TopologyPage page(document);
    page.chooseNpu(5);
    std::map<std::int64_t, QColor> expected;
    for (const int npu : tp) expected[npu] = parallel_axis_color(ParallelAxis::tp);
    for (const int npu : dp) expected[npu] = parallel_axis_color(ParallelAxis::dp);
    for (const int npu : pp) expected[npu] = parallel_axis_color(ParallelAxis::pp);
    expected[5] = page.palette().color(QPalette::Highlight);
    for (std::int64_t npu = 0; npu < 8; ++npu) {
        const QColor want = expected.contains(npu) ? expected[npu] : page.palette().color(QPalette::Base);
        QVERIFY2(page.canvas()->npuFill(npu) == want, qPrintable(QStringLiteral("NPU %1").arg(npu)));
    }
    QVERIFY2(page.npuText().startsWith(QStringLiteral("NPU 5 at (1, 1)")), qPrintable(page.npuText()));
}

void TestTopologyPage::aMismatchShowsTheLoadersReason() {
    ScenarioDocument document;
    QVERIFY(open_small_pipeline(document));
    TopologyPage page(document);
    QCOMPARE(page.problemText(), QString());
    // tp 4 · dp 2 · pp 2 = 16 on 8 NPUs.
    document.edit(QStringLiteral("tp"), QString(), [](Scenario& s) { s.parallelism.tp = 4; });
    QCOMPARE(page.problemText(), QStringLiteral("parallelism: the parallel degrees multiply to 16 (tp=4 x dp=2 x pp=2) "
                                                "but the cluster has 8 devices (4 x 2); change a degree or write one "
                                                "of them as 'auto'"));
    // A chosen NPU says why its groups cannot be drawn.
    page.chooseNpu(3);
    QVERIFY2(page.npuText().contains(QStringLiteral("cannot be laid out")), qPrintable(page.npuText()));
    document.undoStack()->undo();
    QCOMPARE(page.problemText(), QString());
}

void TestTopologyPage::aTopologyThatCannotBeDrawnIsNotDrawn_data() {
    QTest::addColumn<QString>("size");  // typed into dimension 1's NPUs field
    QTest::addColumn<QString>("reason");
    QTest::addColumn<QString>("probe");  // what the collective box says instead of a time
    QTest::newRow("0 NPUs") << QStringLiteral("0") << QStringLiteral("cluster.topology[1].size")
                            << QStringLiteral("dimension 1 has no NPU");
    // 4 × 2 000 000 000 = 8 × 10^9 NPUs, past the 10^7 a scenario may have.
    QTest::newRow("runaway") << QStringLiteral("2000000000") << QStringLiteral("cluster.topology[1].size")
                             << QStringLiteral("the topology has more than 10000000 NPUs");
}

void TestTopologyPage::aTopologyThatCannotBeDrawnIsNotDrawn() {
    QFETCH(QString, size);
    QFETCH(QString, reason);
    QFETCH(QString, probe);
    ScenarioDocument document;
    QVERIFY(open_small_pipeline(document));
    TopologyPage page(document);
    page.chooseNpu(5);
    page.chooseDimension(1);
    page.inspector()->enter(QStringLiteral("cluster.topology[1].size"), size);
    QCOMPARE(document.scenario().cluster.topology[1].size, size.toInt());
    // Nothing drawn, no NPU chosen, and the loader's words about the field above the canvas.
    QVERIFY(page.canvas()->drawing().npus.empty());
    QVERIFY(page.canvas()->scene()->items().isEmpty());
    QCOMPARE(page.npuText(), QString());
    QVERIFY2(page.problemText().contains(reason), qPrintable(page.problemText()));
    QCOMPARE(page.collectiveProbe()->resultText(), probe);
    // Choosing an NPU meanwhile (from a timeline of the older cluster) chooses none.
    page.chooseNpu(5);
    QCOMPARE(page.npuText(), QString());
    document.undoStack()->undo();
    QCOMPARE(page.canvas()->drawing().npus.size(), std::size_t{8});
}

void TestTopologyPage::thePictureIsDrawn() {
    ScenarioDocument document;
    QVERIFY(open_small_pipeline(document));
    TopologyPage page(document);
    page.resize(1400, 900);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    page.chooseNpu(5);
    const QImage image = page.grab().toImage();
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3) {
        for (int x = 0; x < image.width(); x += 3) colours.insert(image.pixel(x, y));
    }
    QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
    // The whole picture, as exported: larger than the canvas's frame of 8 NPUs.
    QVERIFY(page.canvas()->pictureSize().width() > 200);
}

void TestTopologyPage::aClusterDrawnFromScratchSavesAValidFile() {
    // New (the default scenario: GPT-3 175B, 96 layers, batch 1536), its cluster redrawn: dimension 0 made a ring of
    // 4 at 100 GB/s, a switch of 64 added around it (256 NPUs), the degrees set to tp 4 · pp 16 · dp 4 = 256 in
    // the scenario form. Saved, the file is what parasight-cli validate accepts, and it loads back as drawn.
    const Preset* preset = find_preset(PresetKind::scenario, "default");
    QVERIFY(preset != nullptr);
    ScenarioDocument document;
    Diagnostics problems;
    QVERIFY(document.openText(preset->text, std::string(preset->file), problems));
    TopologyPage page(document);
    ScenarioForm form(document);
    page.removeDimension(1);
    page.chooseDimension(0);
    page.inspector()->enter(QStringLiteral("cluster.topology[0].kind"), QStringLiteral("ring"));
    page.inspector()->enter(QStringLiteral("cluster.topology[0].size"), QStringLiteral("4"));
    page.inspector()->enter(QStringLiteral("cluster.topology[0].bandwidth"), QStringLiteral("100 GB/s"));
    page.addDimension(DimensionKind::switch_fabric);
    page.inspector()->enter(QStringLiteral("cluster.topology[1].size"), QStringLiteral("64"));
    QVERIFY(!page.problemText().isEmpty());  // tp 8 · pp 16 · dp 8 = 1024 on 256 NPUs, until the degrees follow
    form.enter(QStringLiteral("parallelism.tp"), QStringLiteral("4"));
    form.enter(QStringLiteral("parallelism.dp"), QStringLiteral("4"));
    QVERIFY2(document.validated() != nullptr,
             document.problems().empty() ? "" : document.problems().front().to_string().c_str());
    QCOMPARE(page.problemText(), QString());
    QCOMPARE(page.canvas()->drawing().npus.size(), std::size_t{256});

    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    const QString path = folder.filePath(QStringLiteral("drawn.yaml"));
    QCOMPARE(document.saveAs(path), std::nullopt);
    QProcess cli;
    cli.start(QStringLiteral(PARASIGHT_CLI_PATH), {QStringLiteral("validate"), path});
    QVERIFY(cli.waitForFinished(60'000));
    QCOMPARE(cli.exitCode(), 0);
    const QString said = QString::fromUtf8(cli.readAllStandardOutput());
    QVERIFY2(said.contains(QStringLiteral("256 devices")), qPrintable(said));
    const LoadResult loaded = load_scenario_file(path.toStdString());
    QVERIFY(loaded.ok());
    QCOMPARE(loaded.scenario->value().cluster.topology, document.scenario().cluster.topology);
    QVERIFY(loaded.scenario->value().parallelism == document.validated()->value().parallelism);
}

void TestTopologyPage::aRunShadesTheLinksAndNamesBottlenecks() {
    // The small pipeline made tp 2 · dp 4 · pp 1 on its 8 NPUs (batch 16 = dp 4 × micro-batch 2 × 2 micro-batches),
    // mapping [tp, dp]: NPU = tp + 2·dp, so a dp group (stride 2, 4 members) spans 2 of dimension 0's 4 NPUs and both
    // members of dimension 1. Its all-reduce reduce-scatters on dimension 0 (300 GB/s) and then on dimension 1
    // (25 GB/s) with half the buffer: dimension 1's phase is 12 / 2 = 6 times as long — the bottleneck.
    ScenarioDocument document;
    QVERIFY(open_small_pipeline(document));
    document.edit(QStringLiteral("layout"), QString(), [](Scenario& s) {
        s.parallelism.pp = 1;
        s.parallelism.dp = 4;
        s.parallelism.mapping = {ParallelAxis::tp, ParallelAxis::dp};
    });
    QVERIFY2(document.validated() != nullptr,
             document.problems().empty() ? "" : document.problems().front().to_string().c_str());
    TopologyPage page(document);
    const auto result = simulated_result(document);
    QVERIFY(result != nullptr && result->traffic.has_value());
    const QColor idle = page.canvas()->linkColor(1);
    page.showResult(result);
    QVERIFY(page.canvas()->traffic().has_value());
    QVERIFY(page.canvas()->linkColor(1) != idle);  // shaded by how busy it was
    const TrafficReport& traffic = *result->traffic;
    QVERIFY2(page.trafficText().contains(
                 QStringLiteral("dimension 1: %1 sent, busy %2 of the iteration")
                     .arg(bytes_text(traffic.dimensions[1].bytes_per_npu),
                          percent_text(100.0 * traffic.dimensions[1].busy_fraction))),
             qPrintable(page.trafficText()));
    page.chooseNpu(0);
    QVERIFY2(page.legendText().contains(QStringLiteral("dp group: 4 NPUs across 2 of dimension 0's 4 and all of "
                                                       "dimension 1 · bottleneck: dimension 1")),
             qPrintable(page.legendText()));
    // The tp group lies in one dimension: no bottleneck to name.
    QVERIFY(page.legendText().contains(QStringLiteral("tp group: 2 NPUs across 2 of dimension 0's 4<")));
    // An edit of the topology makes the run's traffic another topology's: the links go plain.
    page.chooseDimension(1);
    page.inspector()->enter(QStringLiteral("cluster.topology[1].bandwidth"), QStringLiteral("50 GB/s"));
    QVERIFY(!page.canvas()->traffic().has_value());
    QCOMPARE(page.canvas()->linkColor(1), idle);
}

QTEST_MAIN(TestTopologyPage)
#include "test_topology_page.moc"
