// Warnings as values (common/warning.h) worded as the sentences the report JSON and the command line print
// (export/warning_text.h): one row per code, with values set by hand.

#include "export/warning_text.h"

#include "numeric_compare.h"

#include <QTest>

using parasight::Warning;
using parasight::WarningCode;
using parasight::testing::qs;

Q_DECLARE_METATYPE(parasight::Warning)

namespace {

constexpr double GiB = 1024.0 * 1024.0 * 1024.0;

Warning in_flight_capped(const std::string& stage, int micro_batches) {
    Warning warning;
    warning.code = WarningCode::in_flight_capped;
    warning.subject = stage;
    warning.micro_batches = micro_batches;
    return warning;
}

Warning recomputation_frees_nothing(const std::string& operation, int layers, int first_layer) {
    Warning warning;
    warning.code = WarningCode::recomputation_frees_nothing;
    warning.subject = "layer[" + std::to_string(first_layer) + "]." + operation;
    warning.operation = operation;
    warning.layers = layers;
    warning.first_layer = first_layer;
    return warning;
}

Warning out_of_memory(std::int64_t npu, double needed_bytes, double capacity_bytes, const std::string& tensor,
                      double time_s) {
    Warning warning;
    warning.code = WarningCode::out_of_memory;
    warning.subject = "NPU " + std::to_string(npu);
    warning.npu = npu;
    warning.needed_bytes = needed_bytes;
    warning.capacity_bytes = capacity_bytes;
    warning.tensor = tensor;
    warning.time_s = time_s;
    return warning;
}

Warning in_flight_cap_without_effect(const std::string& stage, int requested, int schedule_own) {
    Warning warning;
    warning.code = WarningCode::in_flight_cap_without_effect;
    warning.subject = stage;
    warning.requested_micro_batches = requested;
    warning.micro_batches = schedule_own;
    return warning;
}

Warning memory_bound_exceeded(int stage, double needed_bytes, double model_state_bytes, double activation_bytes,
                              double runtime_bytes, int micro_batches, double capacity_bytes) {
    Warning warning;
    warning.code = WarningCode::memory_bound_exceeded;
    warning.subject = "stage[" + std::to_string(stage) + "]";
    warning.stage = stage;
    warning.needed_bytes = needed_bytes;
    warning.model_state_bytes = model_state_bytes;
    warning.activation_bytes = activation_bytes;
    warning.runtime_bytes = runtime_bytes;
    warning.micro_batches = micro_batches;
    warning.capacity_bytes = capacity_bytes;
    return warning;
}

Warning host_bound_layers(const std::string& subject, int layers, double time_s, double gpu_time_s) {
    Warning warning;
    warning.code = WarningCode::host_bound_layers;
    warning.subject = subject;
    warning.layers = layers;
    warning.time_s = time_s;
    warning.gpu_time_s = gpu_time_s;
    return warning;
}

Warning implausible_iteration_time(double time_s) {
    Warning warning;
    warning.code = WarningCode::implausible_iteration_time;
    warning.subject = "iteration";
    warning.time_s = time_s;
    return warning;
}

}  // namespace

class TestWarningText : public QObject {
    Q_OBJECT

private slots:
    void wordsEachCode_data();
    void wordsEachCode();
};

void TestWarningText::wordsEachCode_data() {
    QTest::addColumn<Warning>("warning");
    QTest::addColumn<QString>("text");
    // A count of 1 takes the singular.
    QTest::newRow("in flight capped, one")
        << in_flight_capped("stage[2]", 1)
        << QStringLiteral("stage[2] keeps at most 1 micro-batch in flight, as the stage before it does: a 1F1B stage "
                          "cannot run further ahead than the stage that feeds it");
    QTest::newRow("in flight capped, three")
        << in_flight_capped("stage[1]", 3)
        << QStringLiteral("stage[1] keeps at most 3 micro-batches in flight, as the stage before it does: a 1F1B stage "
                          "cannot run further ahead than the stage that feeds it");
    const QString why = QStringLiteral("nothing it makes can be dropped while the operations that use it are not "
                                       "recomputed; recompute them too, or leave this one out");
    QTest::newRow("recomputation frees nothing, one layer")
        << recomputation_frees_nothing("attention.qkv", 1, 3)
        << QStringLiteral("recomputing attention.qkv frees no activation memory (1 layer, the first layer[3]): ") + why;
    QTest::newRow("recomputation frees nothing, two layers")
        << recomputation_frees_nothing("mlp.activation", 2, 5)
        << QStringLiteral("recomputing mlp.activation frees no activation memory (2 layers, the first layer[5]): ") +
               why;
    // Binary units and 4 significant digits: 3 364 000 000 B / 2^30 = 3.13297… GiB → 3.133 GiB; 2 GiB exactly; the
    // time in the largest unit it reaches, 190.9e-6 s = 190.9 us.
    QTest::newRow("out of memory")
        << out_of_memory(5, 3364000000.0, 2.0 * GiB, "activations allocated by attention, layer 1, micro-batch 0",
                         190.9e-6)
        << QStringLiteral("out of memory: NPU 5 needs 3.133 GiB of its 2 GiB; the capacity is first exceeded by the "
                          "activations allocated by attention, layer 1, micro-batch 0 at 190.9 us");
    // Model states alone past the capacity, before any task runs: time 0 reaches no unit, so the smallest (ns) says
    // it; 1.5 · 2^30 B = 1.5 GiB.
    QTest::newRow("out of memory at the start")
        << out_of_memory(0, 1.5 * GiB, 1.0 * GiB, "weights, gradients and optimizer state", 0.0)
        << QStringLiteral("out of memory: NPU 0 needs 1.5 GiB of its 1 GiB; the capacity is first exceeded by the "
                          "weights, gradients and optimizer state at 0 ns");
    QTest::newRow("in-flight cap without effect")
        << in_flight_cap_without_effect("stage[3]", 2, 1)
        << QStringLiteral("stage[3]: max_ongoing_micro_batches 2 has no effect: the 1F1B schedule keeps at most 1 "
                          "there anyway; a cap only matters below that");
    // The bound is the model states and the activations: 29.47 + 9.7 = 39.17 MB (decimal units, 4 digits).
    QTest::newRow("memory bound, no runtime")
        << memory_bound_exceeded(1, 39.17e6, 29.47e6, 9.7e6, 0.0, 1, 30e6)
        << QStringLiteral("stage 1 needs at least 39.17 MB (29.47 MB of model states and 9.7 MB of activations for 1 "
                          "micro-batch in flight), more than the 30 MB of a device");
    // With an A100's CUDA context, 1573 MiB = 1 649 410 048 B: 60 GB + 10 GB + that = 71 649 410 048 B = 71.65 GB.
    QTest::newRow("memory bound with the runtime's")
        << memory_bound_exceeded(0, 71649410048.0, 60e9, 10e9, 1649410048.0, 4, 85899345920.0)
        << QStringLiteral("stage 0 needs at least 71.65 GB (60 GB of model states and 10 GB of activations for 4 "
                          "micro-batches in flight, 1.649 GB the runtime holds), more than the 85.9 GB of a device");
    // 43 kernels at 40.53 us = 1.74279 ms → 1.743 ms; the GPU's 612.4 us.
    QTest::newRow("host-bound layers, eager")
        << host_bound_layers("cluster.device.kernel_launch", 12, 43 * 40.53e-6, 612.4e-6)
        << QStringLiteral("the host's kernel launches bound all 12 layers: a layer's forward and backward take 1.743 ms "
                          "as launched (cluster.device.kernel_launch) where the GPU needs 612.4 us; replaying them "
                          "from CUDA graphs (training.cuda_graphs) or a larger micro-batch keeps the GPU busy");
    QTest::newRow("host-bound layer, CUDA graphs")
        << host_bound_layers("cluster.device.graph_kernel_launch", 1, 2e-3, 1e-3)
        << QStringLiteral("the host's kernel launches bound the layer, even replayed from CUDA graphs: a layer's "
                          "forward and backward take 2 ms as launched (cluster.device.graph_kernel_launch) where the GPU "
                          "needs 1 ms; a larger micro-batch keeps the GPU busy");
    // Two Julian years, 2 · 365.25 · 86400 s = 63 115 200 s: "2.0 years", and the seconds to 4 significant digits.
    QTest::newRow("implausible iteration time")
        << implausible_iteration_time(63115200.0)
        << QStringLiteral("one iteration takes 2.0 years (63115200 s): check the units of the link bandwidths and "
                          "measured operation times");
}

void TestWarningText::wordsEachCode() {
    QFETCH(Warning, warning);
    QFETCH(QString, text);
    QCOMPARE(qs(parasight::warning_text(warning)), text);
}

QTEST_APPLESS_MAIN(TestWarningText)
#include "test_warning_text.moc"
