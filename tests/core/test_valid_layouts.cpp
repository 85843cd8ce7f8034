// The layouts the form's picker offers (validation/valid_layouts.h): every tp × pp × dp that lays the model onto
// the devices and passes validate() with the rest of the scenario — worked out by hand.

#include "scenario_file/scenario_loader.h"
#include "validation/valid_layouts.h"
#include "validation/validate.h"

#include <QtTest>

using namespace parasight;

namespace {

// 8 devices; a 4-layer transformer with 4 heads (ffn 1024, sequence 256); 8 sequences per iteration in micro-batches
// of 2.
Scenario eight_devices(const std::string& parallelism) {
    const std::string text = "schema: 1\n"
                             "name: eight devices\n"
                             "model: {kind: transformer, layers: 4, hidden: 256, heads: 4, seq_len: 256, vocab: 1024}\n"
                             "training: {global_batch: 8, micro_batch: 2}\n"
                             "cluster:\n"
                             "  device: a100-80gb\n"
                             "  topology: [{kind: switch, size: 8, bandwidth: 300 GB/s, latency: 1 us}]\n"
                             "parallelism: " + parallelism + "\n";
    const ReadResult read = read_scenario_text(text, "eight.yaml");
    if (!read.scenario) qFatal("cannot read the test scenario");
    return *read.scenario;
}

QStringList named(const std::vector<DegreeCandidate>& layouts) {
    QStringList names;
    for (const DegreeCandidate& layout : layouts) {
        names << QStringLiteral("%1/%2/%3").arg(layout.tp).arg(layout.pp).arg(layout.dp);
    }
    return names;
}

}  // namespace

class TestValidLayouts : public QObject {
    Q_OBJECT
private slots:
    void countedByHand();
    void sequenceParallelismNeedsTpToDivideTheSequence();
    void aChosenLayoutIsValidAndHasNoAuto();
};

void TestValidLayouts::countedByHand() {
    // tp divides the 4 heads: 1, 2, 4. pp ≤ 4 layers and divides 8 / tp; dp = 8 / (tp · pp). Candidates (tp/pp/dp):
    //   1/1/8 1/2/4 1/4/2 2/1/4 2/2/2 2/4/1 4/1/2 4/2/1.
    // The batch: 8 sequences must divide into dp replicas × micro-batches of 2 — dp · 2 divides 8 — so dp = 8 is
    // out (16 does not divide 8); the other seven validate.
    const Scenario scenario = eight_devices("{dp: auto}");
    QCOMPARE(named(valid_layouts(scenario)), (QStringList{"1/2/4", "1/4/2", "2/1/4", "2/2/2", "2/4/1", "4/1/2",
                                                         "4/2/1"}));
}

void TestValidLayouts::sequenceParallelismNeedsTpToDivideTheSequence() {
    // With sequence parallelism tp must also divide seq_len 256 (it does for 1, 2, 4) and tp = 1 has no sequence to
    // split: still the same seven. A sequence of 255 tokens leaves only tp = 1: 1/2/4 and 1/4/2.
    QCOMPARE(valid_layouts(eight_devices("{dp: auto, sequence_parallel: true}")).size(), std::size_t{7});
    Scenario odd = eight_devices("{dp: auto, sequence_parallel: true}");
    odd.model.seq_len = 255;
    QCOMPARE(named(valid_layouts(odd)), (QStringList{"1/2/4", "1/4/2"}));
}

void TestValidLayouts::aChosenLayoutIsValidAndHasNoAuto() {
    const Scenario chosen = with_degrees(eight_devices("{dp: auto}"), DegreeCandidate{2, 2, 1, 2});
    QVERIFY(!chosen.parallelism.derived_axis);
    QCOMPARE(chosen.parallelism.tp, 2);
    QCOMPARE(chosen.parallelism.pp, 2);
    QCOMPARE(chosen.parallelism.dp, 2);
    QVERIFY(validate(chosen).ok());
}

QTEST_GUILESS_MAIN(TestValidLayouts)
#include "test_valid_layouts.moc"
