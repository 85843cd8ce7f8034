// Names that state what a scenario is made of stay true across edits (scenario/scenario_names.h): "GPT-3 175B on
// 1024 A100-80GB" and its cluster's "128 x DGX A100 (1024 GPUs)" survived an edit to 512 devices into the saved
// file and the run list. A name stating a changed fact is derived anew; the user's own names are kept.

#include "presets/preset_library.h"
#include "scenario/scenario_names.h"
#include "scenario_file/scenario_loader.h"

#include <QtTest>

using namespace parasight;

namespace {

Scenario default_scenario() {
    const Preset* preset = find_preset(PresetKind::scenario, "default");
    const LoadResult loaded = load_scenario_text(preset->text, "default.yaml");
    if (!loaded.ok()) qFatal("the default scenario does not load");
    return loaded.scenario->value();
}

}  // namespace

class TestScenarioNames : public QObject {
    Q_OBJECT
private slots:
    void theDefaultScenarioStatesItsFacts();
    void aTopologyEditRenamesWhatStatedTheCount();
    void aDeviceEditRenamesWhatStatedTheDevice();
    void theUsersOwnNamesAreKept();
    void aNumberInsideALongerOneIsNotTheCount();
};

void TestScenarioNames::theDefaultScenarioStatesItsFacts() {
    const Scenario scenario = default_scenario();
    QCOMPARE(scenario.name, std::string("GPT-3 175B on 1024 A100-80GB"));
    QCOMPARE(scenario.cluster.name, std::string("128 x DGX A100 (1024 GPUs)"));
    // The facts its names state: 8 × 128 = 1024 devices, the A100-80GB (preset a100-80gb), GPT-3 175B.
    const NameFacts facts = name_facts(scenario);
    QCOMPARE(facts.devices, std::int64_t{1024});
    QCOMPARE(facts.device, std::string("A100-80GB SXM4"));
    QCOMPARE(facts.device_preset, std::string("a100-80gb"));
    QCOMPARE(facts.model, std::string("GPT-3 175B"));
    QCOMPARE(derived_scenario_name(scenario), std::string("GPT-3 175B on 1024 A100-80GB SXM4"));
}

void TestScenarioNames::aTopologyEditRenamesWhatStatedTheCount() {
    Scenario scenario = default_scenario();
    const NameFacts before = name_facts(scenario);
    QCOMPARE(before.devices, std::int64_t{1024});
    scenario.cluster.topology[1].size = 64;  // 8 × 64 = 512
    keep_names_true(before, scenario);
    QCOMPARE(scenario.name, std::string("GPT-3 175B on 512 A100-80GB SXM4"));
    QCOMPARE(scenario.cluster.name, std::string("512 x A100-80GB SXM4 (8 x 64)"));
}

void TestScenarioNames::aDeviceEditRenamesWhatStatedTheDevice() {
    Scenario scenario = default_scenario();
    const NameFacts before = name_facts(scenario);
    // The name says "A100-80GB", the old device's preset id in capitals.
    scenario.cluster.device.name = "H100 SXM5";
    scenario.cluster.device.preset = "h100-sxm";
    keep_names_true(before, scenario);
    QCOMPARE(scenario.name, std::string("GPT-3 175B on 1024 H100 SXM5"));
    // The cluster's name says "DGX A100" and 1024 GPUs, not "A100-80GB": still true as far as it states.
    QCOMPARE(scenario.cluster.name, std::string("128 x DGX A100 (1024 GPUs)"));
}

void TestScenarioNames::theUsersOwnNamesAreKept() {
    Scenario scenario = default_scenario();
    scenario.name = "my capacity plan";
    scenario.cluster.name = "the lab's cluster";
    const NameFacts before = name_facts(scenario);
    scenario.cluster.topology[1].size = 64;
    keep_names_true(before, scenario);
    QCOMPARE(scenario.name, std::string("my capacity plan"));
    QCOMPARE(scenario.cluster.name, std::string("the lab's cluster"));
    // An edit that changes none of the facts renames nothing.
    Scenario other = default_scenario();
    const NameFacts facts = name_facts(other);
    other.training.global_batch = 3072;
    keep_names_true(facts, other);
    QCOMPARE(other.name, std::string("GPT-3 175B on 1024 A100-80GB"));
}

void TestScenarioNames::aNumberInsideALongerOneIsNotTheCount() {
    // 8 devices named "run 2048": 8 appears only inside 2048, so the count is not stated.
    Scenario scenario = default_scenario();
    scenario.cluster.topology.resize(1);
    scenario.name = "run 2048";
    const NameFacts before = name_facts(scenario);
    QCOMPARE(before.devices, std::int64_t{8});
    scenario.cluster.topology[0].size = 4;
    QCOMPARE(true_scenario_name(before, scenario), std::string("run 2048"));
    scenario.name = "8 GPUs, 2048 tokens";
    QCOMPARE(true_scenario_name(before, scenario), std::string("GPT-3 175B on 4 A100-80GB SXM4"));
}

QTEST_GUILESS_MAIN(TestScenarioNames)
#include "test_scenario_names.moc"
