// CNN models (ParaDL, Kahira et al. 2021, Table 1): shapes, FLOPs and parameters of the bundled ResNet-50 and VGG-16
// against their published figures, a layer worked out by hand, and CNN simulation with data and pipeline parallelism.

#include "model/cnn_layers.h"
#include "model/model_structure.h"
#include "model/transformer_costs.h"
#include "scenario_file/scenario_loader.h"
#include "simulation/simulate.h"

#include <QtTest>

using namespace parasight;

namespace {

ValidatedScenario cnn_scenario(const std::string& model, const std::string& parallelism, int global_batch = 64) {
    const std::string text = "schema: 1\nmodel: " + model + "\ntraining: {global_batch: " +
                             std::to_string(global_batch) + ", micro_batch: 8, dtype: bf16, optimizer: sgd}\n"
                             "cluster:\n  device: a100-80gb\n"
                             "  topology: [{kind: switch, size: 8, bandwidth: 300 GB/s, latency: 1 us}]\n"
                             "parallelism: " + parallelism + "\n";
    const LoadResult loaded = load_scenario_text(text, "cnn.yaml");
    for (const auto& d : loaded.diagnostics) qWarning("%s", d.to_string().c_str());
    return *loaded.scenario;
}

}  // namespace

class TestCnn : public QObject {
    Q_OBJECT
private slots:
    void convolutionByHand();
    void resnet50MatchesPublishedFigures();
    void vgg16MatchesPublishedFigures();
    void shapeErrors();
    void dataParallelReducesEveryParameterOnce();
    void pipelineSplitsTheExpandedLayers();
};

void TestCnn::convolutionByHand() {
    // VGG-16's first convolution on 224×224×3 with 64 3×3 filters, padding 1, micro-batch 2, 2-byte values:
    //   output 224×224×64; FLOPs 2·(2·224·224)·(3·3·3)·64 = 346 816 512; parameters 27·64 + 64 = 1 792;
    //   kept input 2·3·224·224·2 B = 602 112 B; backward twice the FLOPs.
    ModelSpec model;
    model.kind = ModelKind::cnn;
    model.input = CnnInput{3, 224, 224};
    CnnLayer conv;
    conv.type = CnnLayerType::conv;
    conv.filters = 64;
    conv.kernel = 3;
    conv.padding = 1;
    model.cnn_layers = {CnnBlock{1, Shortcut::none, {conv}}};
    const auto layers = cnn_layer_work(model, 2.0, 2.0);
    QCOMPARE(layers.size(), std::size_t{1});
    const CnnLayerWork& work = layers.front();
    QCOMPARE(work.output, (ActivationShape{64, 224, 224, false}));
    QCOMPARE_EQ(work.operation.forward.flops, 346816512.0);
    QCOMPARE_EQ(work.operation.backward.flops, 2.0 * 346816512.0);
    QCOMPARE_EQ(work.parameters, 1792.0);
    QCOMPARE_EQ(work.kept_activation_bytes, 602112.0);
    // As an implicit GEMM [b·H·W × C·K²]·[C·K² × F]: 2·224·224 = 100352 output positions × 64 filters, reduced over
    // C·K² = 27; backward the input gradient (positions × 27 over 64) and the weight gradient (27 × 64 over positions).
    using parasight::MatmulShape;
    QCOMPARE(work.operation.forward.matmuls[0], (MatmulShape{100352, 64, 27, 1}));
    QCOMPARE(work.operation.backward.matmuls[0], (MatmulShape{100352, 27, 64, 1}));
    QCOMPARE(work.operation.backward.matmuls[1], (MatmulShape{27, 64, 100352, 1}));
}

void TestCnn::resnet50MatchesPublishedFigures() {
    const ModelSpec model = cnn_scenario("resnet50", "{dp: 8}")->model;
    // 1 conv + 1 pool + 16 bottleneck blocks × 3 convs + 4 projection shortcuts + 1 pool + 1 fc = 56 layers.
    QCOMPARE(pipeline_layer_count(model), 56);
    // He et al. 2016 Table 1: 3.8·10^9 multiply-adds for ResNet-50 v1; v1.5 (stride on the 3×3) is 4.1·10^9, i.e.
    // 8.2 GFLOPs a sample. Parameters: 25.5 M weights (torchvision: 25 557 032 with BatchNorm; ours count conv biases
    // instead of BatchNorm's scale and shift): within 0.2%.
    const double flops = cnn_forward_flops_per_sample(model);
    QVERIFY2(std::abs(flops / 8.18e9 - 1.0) < 0.01, qPrintable(QString::number(flops)));
    double parameters = 0.0;
    for (const auto& layer : cnn_layer_work(model, 1.0, 2.0)) parameters += layer.parameters;
    QVERIFY2(std::abs(parameters / 25557032.0 - 1.0) < 0.002, qPrintable(QString::number(parameters, 'f', 0)));
    // The last layer is the 1000-way fc on a 2048-wide vector.
    const auto layers = cnn_layer_work(model, 1.0, 2.0);
    QCOMPARE(layers.back().type, CnnLayerType::fc);
    QCOMPARE(layers.back().input.elements(), std::int64_t{2048});
    QCOMPARE_EQ(layers.back().parameters, 2048.0 * 1000.0 + 1000.0);
}

void TestCnn::vgg16MatchesPublishedFigures() {
    const ModelSpec model = cnn_scenario("vgg16", "{dp: 8}")->model;
    // Simonyan & Zisserman 2015: 138 M parameters (138 357 544 with biases); 15.5·10^9 multiply-adds a sample.
    double parameters = 0.0;
    for (const auto& layer : cnn_layer_work(model, 1.0, 2.0)) parameters += layer.parameters;
    QCOMPARE_EQ(parameters, 138357544.0);
    QVERIFY(std::abs(cnn_forward_flops_per_sample(model) / 30.95e9 - 1.0) < 0.005);
    QCOMPARE(pipeline_layer_count(model), 21);  // 13 conv + 5 pool + 3 fc
}

void TestCnn::shapeErrors() {
    CnnLayer fc;
    fc.type = CnnLayerType::fc;
    fc.outputs = 10;
    CnnLayer pool;
    pool.type = CnnLayerType::pool;
    pool.kernel = 5;
    pool.stride = 5;
    const auto flat = apply_cnn_layer(fc, ActivationShape{3, 4, 4, false});
    QVERIFY(flat.has_value());
    QVERIFY(flat->flattened);
    const auto after_fc = apply_cnn_layer(pool, *flat);
    QVERIFY(!after_fc.has_value());
    QVERIFY(QString::fromStdString(after_fc.error()).contains("cannot follow an fc layer"));
    const auto too_big = apply_cnn_layer(pool, ActivationShape{3, 4, 4, false});
    QVERIFY(!too_big.has_value());
    QCOMPARE(QString::fromStdString(too_big.error()),
             QStringLiteral("kernel 5 does not fit the 4x4 activation (with padding 0)"));
}

void TestCnn::dataParallelReducesEveryParameterOnce() {
    // dp 8, one micro-batch each (global 64, micro-batch 8): the gradient all-reduces together carry every parameter
    // once, in 2-byte values: 2 · 138 357 544 B for VGG-16.
    const ValidatedScenario scenario = cnn_scenario("vgg16", "{dp: 8}");
    const auto simulation = simulate_graph(scenario, SimulateOptions{});
    QVERIFY(simulation.has_value());
    double reduced = 0.0;
    for (const Task& task : simulation->graph.tasks) {
        if (task.kind == TaskKind::dp_comm) reduced += task.bytes;
    }
    QCOMPARE_EQ(reduced, 2.0 * 138357544.0);
    // The model FLOPs are 3 × forward × 64 samples; with no recompute HFU equals MFU.
    QCOMPARE_EQ(simulation->report.model_flops_per_iteration, 3.0 * cnn_forward_flops_per_sample(scenario->model) * 64);
    QVERIFY(std::abs(simulation->report.hfu / simulation->report.mfu - 1.0) < 1e-12);
    QVERIFY(simulation->report.iteration_time_s > 0.0);
}

void TestCnn::pipelineSplitsTheExpandedLayers() {
    // ResNet-50's 56 layers over pp 4 (14 each) with dp 2: every layer runs forward and backward once per
    // micro-batch on exactly one stage: 56 layers × 4 micro-batches × 2 passes = 448 compute tasks, and every stage
    // but the last sends its boundary activation forward.
    const ValidatedScenario scenario = cnn_scenario("resnet50", "{pp: 4, dp: 2, mapping: [dp, pp]}");
    const auto simulation = simulate_graph(scenario, SimulateOptions{});
    QVERIFY2(simulation.has_value(), simulation ? "" : simulation.error().message.c_str());
    int compute_tasks = 0;
    int sends = 0;
    for (const Task& task : simulation->graph.tasks) {
        if (task.kind == TaskKind::forward || task.kind == TaskKind::backward) ++compute_tasks;
        if (task.kind == TaskKind::pp_comm) ++sends;
    }
    QCOMPARE(compute_tasks, 56 * 4 * 2);
    // Forward sends from stages 0-2 and backward sends from stages 1-3, 4 micro-batches each: 24.
    QCOMPARE(sends, 24);
    QVERIFY(simulation->report.breakdown.bubble_s > 0.0);
}

QTEST_APPLESS_MAIN(TestCnn)
#include "test_cnn.moc"
