// Which devices did the same thing (analysis/identical_devices.h) and which node each sits in (TimelineDevice::node),
// on tests/data/cli/small_pipeline.yaml: 8 A100s, nodes of 4 NPUs on a switch, 2 nodes; tp 2 · dp 2 · pp 2.
//
// With every device simulated, the tp and dp peers of a stage run the same schedule on the same kind of links, so
// a stage's 4 devices are one class and the two stages two classes. Mapping [tp, dp, pp] puts NPU = tp + 2·dp + 4·pp:
// stage 0 is NPUs 0–3 (node 0), stage 1 NPUs 4–7 (node 1). Mapping [tp, pp, dp] puts NPU = tp + 2·pp + 4·dp: stage 0
// is NPUs 0, 1, 4, 5 — two in each node — and stage 1 NPUs 2, 3, 6, 7.

#include "analysis/identical_devices.h"
#include "scenario_file/scenario_loader.h"
#include "simulation/simulate.h"

#include <QtTest>

#include <fstream>
#include <sstream>

using namespace parasight;

namespace {

std::shared_ptr<const Timeline> small_pipeline(bool all_devices, const std::string& mapping) {
    std::ifstream file(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml");
    std::stringstream text;
    text << file.rdbuf();
    std::string yaml = text.str();
    const std::string written = "mapping: [tp, dp, pp]";
    const auto at = yaml.find(written);
    if (at == std::string::npos) return nullptr;
    yaml.replace(at, written.size(), "mapping: [" + mapping + "]");
    const LoadResult loaded = load_scenario_text(yaml, "small_pipeline.yaml", PARASIGHT_TEST_DATA_DIR "/cli");
    if (!loaded.ok()) return nullptr;
    SimulateOptions options;
    options.all_devices = all_devices;
    const auto simulation = simulate(*loaded.scenario, options);
    return simulation ? simulation->timeline : nullptr;
}

std::vector<std::int64_t> npus_of(const Timeline& timeline, std::span<const std::size_t> devices) {
    std::vector<std::int64_t> npus;
    for (const std::size_t device : devices) npus.push_back(timeline.devices()[device].npu);
    return npus;
}

using Npus = std::vector<std::int64_t>;

}  // namespace

class TestIdenticalDevices : public QObject {
    Q_OBJECT
private slots:
    void aStagesPeersAreOneClass_data();
    void aStagesPeersAreOneClass();
    void eachRepresentativeIsItsOwnClass();
    void nodesAreTheInnermostDimensionsGroups();
};

void TestIdenticalDevices::aStagesPeersAreOneClass_data() {
    QTest::addColumn<QString>("mapping");
    QTest::addColumn<Npus>("stage0");
    QTest::addColumn<Npus>("stage1");
    QTest::newRow("tp, dp, pp") << QStringLiteral("tp, dp, pp") << Npus{0, 1, 2, 3} << Npus{4, 5, 6, 7};
    QTest::newRow("tp, pp, dp") << QStringLiteral("tp, pp, dp") << Npus{0, 1, 4, 5} << Npus{2, 3, 6, 7};
}

void TestIdenticalDevices::aStagesPeersAreOneClass() {
    QFETCH(QString, mapping);
    QFETCH(Npus, stage0);
    QFETCH(Npus, stage1);
    const auto timeline = small_pipeline(true, mapping.toStdString());
    QVERIFY(timeline != nullptr);
    QCOMPARE(timeline->devices().size(), std::size_t{8});
    const IdenticalDevices classes = IdenticalDevices::of(*timeline);
    QCOMPARE(classes.class_count(), std::size_t{2});
    // Classes in order of their first device; the timeline lists devices by NPU.
    QCOMPARE(npus_of(*timeline, classes.members(0)), stage0);
    QCOMPARE(npus_of(*timeline, classes.members(1)), stage1);
    for (std::size_t device = 0; device < 8; ++device) {
        const std::size_t own = classes.class_of(device);
        const auto members = classes.members(own);
        QVERIFY(std::find(members.begin(), members.end(), device) != members.end());
        QCOMPARE(timeline->devices()[device].stage, static_cast<int>(own));
    }
}

void TestIdenticalDevices::eachRepresentativeIsItsOwnClass() {
    // One device per stage simulated (NPUs 0 and 4), each standing for 4: two devices, two classes of one.
    const auto timeline = small_pipeline(false, "tp, dp, pp");
    QVERIFY(timeline != nullptr);
    const IdenticalDevices classes = IdenticalDevices::of(*timeline);
    QCOMPARE(classes.class_count(), std::size_t{2});
    QCOMPARE(npus_of(*timeline, classes.members(0)), Npus{0});
    QCOMPARE(npus_of(*timeline, classes.members(1)), Npus{4});
    QCOMPARE(timeline->devices()[1].weight, 4.0);
}

void TestIdenticalDevices::nodesAreTheInnermostDimensionsGroups() {
    // Dimension 0 has 4 NPUs: NPU n is in node n / 4.
    const auto timeline = small_pipeline(true, "tp, pp, dp");
    QVERIFY(timeline != nullptr);
    for (const TimelineDevice& device : timeline->devices()) QCOMPARE(device.node, device.npu / 4);
}

QTEST_GUILESS_MAIN(TestIdenticalDevices)

#include "test_identical_devices.moc"
