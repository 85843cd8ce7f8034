// Closed-form transformer costs (core/model/transformer_costs.h) and pipeline schedules (core/compile/
// pipeline_schedule.h), against hand-worked values and the papers they come from:
//   Narayanan et al. 2021 (SC'21) §5.1: forward FLOPs of a layer 24·b·s·h²·(1 + s/6h), logits 2·b·s·h·V, and the
//     model FLOPs of one iteration 72·B·s·l·h²·(1 + s/6h + V/(12·h·l)) (their eq. for forward + backward, no
//     recompute);
//   Korthikanti et al. 2022 Table 2: activation bytes per layer for every tensor-/sequence-parallel and recompute
//     variant;
//   Rajbhandari et al. 2020 (ZeRO) §3.1, §5 and Figure 1: model-state bytes per device at each ZeRO stage (core/model/
//     model_states.h);
//   Huang et al. 2019 (GPipe), Narayanan et al. 2019 / DAPPLE (1F1B), Megatron-LM's interleaved schedule.
// Every number below is worked out in the comment next to it. Integers up to 2^53 and products of small integers with
// powers of two are exact in double, so most comparisons are exact (QCOMPARE); where a closed form divides (s/6h)
// the comparison allows 1e-15 relative.

#include "compile/layer_costs.h"
#include "compile/pipeline_schedule.h"
#include "model/layer_operations.h"
#include "model/model_states.h"
#include "model/transformer_costs.h"
#include "scenario_file/scenario_loader.h"

#include "numeric_compare.h"

#include <QTest>

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using parasight::DeviceSpec;
using parasight::Dtype;
using parasight::LayerFlops;
using parasight::LayerSplit;
using parasight::MlpKind;
using parasight::ModelSpec;
using parasight::Optimizer;
using parasight::OptimizerImplementation;
using parasight::Pass;
using parasight::PipelineStep;
using parasight::Recompute;
using parasight::RecomputedOperations;
using parasight::Schedule;
using parasight::testing::qs;

Q_DECLARE_METATYPE(parasight::Dtype)
Q_DECLARE_METATYPE(parasight::Optimizer)
Q_DECLARE_METATYPE(parasight::OptimizerImplementation)
Q_DECLARE_METATYPE(parasight::Schedule)
Q_DECLARE_METATYPE(parasight::Recompute)

namespace {

// A bundled model preset as a scenario loads it (defaults filled in).
ModelSpec preset_model(const std::string& id) {
    const std::string text = "schema: 1\nmodel: " + id +
                             "\ntraining: {global_batch: 1, dtype: fp32}\ncluster:\n  device: a100-80gb\n"
                             "  topology: [{kind: switch, size: 1, bandwidth: 100 GB/s, latency: 1 us}]\n";
    const auto loaded = parasight::load_scenario_text(text, "preset.yaml");
    if (!loaded.ok()) qFatal("preset %s does not load: %s", id.c_str(), loaded.diagnostics.front().to_string().c_str());
    return loaded.scenario->value().model;
}

// The 22B model of Korthikanti et al. 2022 Table 3 / Table 4: h 6144, a 64, s 2048 (GPT-style, 4h GeLU MLP).
// Operations i of the attention block and j of the MLP block, recomputed.
parasight::RecomputedOperations recomputed_operations(const std::vector<int>& attention_ops,
                                                      const std::vector<int>& mlp_ops) {
    parasight::RecomputedOperations recomputed;
    for (const int op : attention_ops) recomputed.add(parasight::LayerBlock::attention, op);
    for (const int op : mlp_ops) recomputed.add(parasight::LayerBlock::mlp, op);
    return recomputed;
}

ModelSpec korthikanti_22b() {
    ModelSpec model;
    model.layers = 48;
    model.hidden = 6144;
    model.heads = 64;
    model.kv_heads = 64;
    model.ffn_hidden = 4 * 6144;
    model.mlp = MlpKind::gelu;
    model.seq_len = 2048;
    model.vocab = 51200;
    return model;
}

ModelSpec model_named(const QString& name) {
    if (name == QStringLiteral("korthikanti-22b")) return korthikanti_22b();
    return preset_model(name.toStdString());
}

QString describe(const std::vector<PipelineStep>& steps) {
    QString text;
    for (const PipelineStep& step : steps) {
        const QString kind = step.forward           ? QStringLiteral("F")
                             : step.weight_gradient ? QStringLiteral("W")
                                                    : QStringLiteral("B");
        text += QStringLiteral("%1(%2,%3) ").arg(kind).arg(step.chunk).arg(step.micro_batch);
    }
    return text;
}

// Shorthands for hand-written orders: F(chunk, micro-batch) and B(chunk, micro-batch).
PipelineStep F(int chunk, int micro_batch) { return PipelineStep{true, chunk, micro_batch}; }
PipelineStep B(int chunk, int micro_batch) { return PipelineStep{false, chunk, micro_batch}; }
PipelineStep F(int micro_batch) { return F(0, micro_batch); }
PipelineStep B(int micro_batch) { return B(0, micro_batch); }
PipelineStep W(int micro_batch) { return PipelineStep{false, 0, micro_batch, true}; }

}  // namespace

using Steps = std::vector<PipelineStep>;
Q_DECLARE_METATYPE(Steps)

class TestModelCosts : public QObject {
    Q_OBJECT

private slots:
    void gpt3LayerFlopsMatchNarayanan_data();
    void gpt3LayerFlopsMatchNarayanan();
    void llama3GroupedQueryFlopsPerPart();
    void logitsFlops_data();
    void logitsFlops();
    void gptStyleLayerParameters_data();
    void gptStyleLayerParameters();
    void gpt3ModelParameters();
    void llamaStyleParameters();
    void embeddingTableAndFinalNormParameters();
    void modelParametersMatchPublishedCounts_data();
    void modelParametersMatchPublishedCounts();
    void activationBytesKorthikantiTable2_data();
    void activationBytesKorthikantiTable2();
    void activationBytesWithoutDropout();
    void parallelBlocksShareTheirInput();
    void activationBytesGroupedQuerySwiglu();
    void selectiveOpKeepsTheSavedMatmulOutputs();
    void activationBytesPerRecomputedOperation_data();
    void activationBytesPerRecomputedOperation();
    void recomputationFreeingNothing_data();
    void recomputationFreeingNothing();
    void mixtureOfExpertsCapacity();
    void fusedAttentionKernel();
    void eagerKernelsMoveWhatPyTorchMoves();
    void fp8RunsOnlyTheLinearGemmsInFp8();
    void memoryBoundPartOfAKernel_data();
    void memoryBoundPartOfAKernel();
    void fp32GradientsAreFourBytes();
    void headWidthSetApartFromHidden();
    void weightGradientsAreHalfOfEachLinearsBackward();
    void kernelLaunchFloor_data();
    void kernelLaunchFloor();
    void cudaGraphsLaunchAtTheGraphTime();
    void layerModulesAddUpToTheLayer_data();
    void layerModulesAddUpToTheLayer();
    void zbH1Order();
    void modelFlopsPerIterationNarayanan();
    void modelStateBytesZero_data();
    void modelStateBytesZero();
    void modelStateBytesZeroFigure1_data();
    void modelStateBytesZeroFigure1();
    void optimizerStep_data();
    void optimizerStep();
    void optimizerStepOnTheMeasuredH100_data();
    void optimizerStepOnTheMeasuredH100();

    void gpipeOrder();
    void oneFOneBHandWorked();
    void oneFOneBWarmupAndAlternation_data();
    void oneFOneBWarmupAndAlternation();
    void oneFOneBMaxInFlight();
    void interleavedMatchesMegatron_data();
    void interleavedMatchesMegatron();
    void everyForwardOnceBeforeItsBackward_data();
    void everyForwardOnceBeforeItsBackward();
};

// --- FLOPs ---------------------------------------------------------------------------------------------------------

void TestModelCosts::gpt3LayerFlopsMatchNarayanan_data() {
    QTest::addColumn<double>("micro_batch");
    QTest::newRow("b=1") << 1.0;
    QTest::newRow("b=8") << 8.0;
}

void TestModelCosts::gpt3LayerFlopsMatchNarayanan() {
    QFETCH(double, micro_batch);
    // GPT-3 175B: h = 12288, s = 2048, MHA (kv width = h), F = 4h, GeLU. With t = b·s tokens:
    //   qkv  2·t·h·3h = 6·t·h²      (b=1: 6·2048·12288² = 1 855 425 871 872)
    //   core 4·t·s·h                (b=1: 4·2048·2048·12288 = 206 158 430 208)
    //   out  2·t·h²                 (b=1: 618 475 290 624)
    //   mlp  2·2·t·h·4h = 16·t·h²   (b=1: 4 947 802 324 992)
    //   sum  24·t·h² + 4·t·s·h = 24·b·s·h²·(1 + s/6h)   (b=1: 7 627 861 917 696)
    const ModelSpec model = preset_model("gpt3-175b");
    const double h = 12288.0;
    const double s = 2048.0;
    const double t = micro_batch * s;
    const LayerFlops flops = parasight::layer_forward_flops(model, micro_batch);
    QCOMPARE_EQ(flops.qkv, 6.0 * t * h * h);
    QCOMPARE_EQ(flops.attention_core, 4.0 * t * s * h);
    QCOMPARE_EQ(flops.attention_out, 2.0 * t * h * h);
    QCOMPARE_EQ(flops.mlp, 16.0 * t * h * h);
    QCOMPARE_EQ(flops.total(), micro_batch * 7627861917696.0);
    QCOMPARE_EQ(flops.total(), 24.0 * t * h * h + 4.0 * t * s * h);
    // Narayanan 2021 §5.1 as printed: 24·b·s·h²·(1 + s/(6h)); s/6h = 2048/73728 = 1/36 is not a binary fraction.
    PS_COMPARE_RELATIVE(flops.total(), 24.0 * micro_batch * s * h * h * (1.0 + s / (6.0 * h)), 1e-15);
}

void TestModelCosts::llama3GroupedQueryFlopsPerPart() {
    // Llama 3 8B: h = 4096, 32 heads of 128, 8 kv heads (kv width 8·128 = 1024), F = 14336 SwiGLU, s = 8192; b = 1,
    // so t = 8192 tokens:
    //   qkv  2·t·h·(h + 2·1024) = 2·8192·4096·6144 = 412 316 860 416
    //   core 4·t·s·h = 4·8192·8192·4096            = 1 099 511 627 776
    //   out  2·t·h² = 2·8192·4096²                 = 274 877 906 944
    //   mlp  3 matrices: 2·3·t·h·F = 6·8192·4096·14336 = 2 886 218 022 912
    //   total                                       = 4 672 924 418 048
    const ModelSpec model = preset_model("llama3-8b");
    QCOMPARE(model.kv_heads, 8);
    QCOMPARE(model.ffn_hidden, 14336);
    QCOMPARE(model.mlp, MlpKind::swiglu);
    QCOMPARE(model.seq_len, 8192);
    const LayerFlops flops = parasight::layer_forward_flops(model, 1.0);
    QCOMPARE_EQ(flops.qkv, 412316860416.0);
    QCOMPARE_EQ(flops.attention_core, 1099511627776.0);
    QCOMPARE_EQ(flops.attention_out, 274877906944.0);
    QCOMPARE_EQ(flops.mlp, 2886218022912.0);
    QCOMPARE_EQ(flops.total(), 4672924418048.0);
}

void TestModelCosts::logitsFlops_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<double>("micro_batch");
    QTest::addColumn<double>("flops");
    // 2·b·s·h·V (Narayanan 2021 §5.1).
    // GPT-3: 2·1·2048·12288·51200 = 2 576 980 377 600.
    QTest::newRow("gpt3-175b b=1") << QStringLiteral("gpt3-175b") << 1.0 << 2576980377600.0;
    // b = 4: four times that, 10 307 921 510 400.
    QTest::newRow("gpt3-175b b=4") << QStringLiteral("gpt3-175b") << 4.0 << 10307921510400.0;
    // Llama 3 8B: 2·1·8192·4096·128256 = 8 607 114 461 184.
    QTest::newRow("llama3-8b b=1") << QStringLiteral("llama3-8b") << 1.0 << 8607114461184.0;
}

void TestModelCosts::logitsFlops() {
    QFETCH(QString, model);
    QFETCH(double, micro_batch);
    QFETCH(double, flops);
    QCOMPARE_EQ(parasight::logits_forward_flops(model_named(model), micro_batch), flops);
}

// --- parameters ----------------------------------------------------------------------------------------------------

void TestModelCosts::gptStyleLayerParameters_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<double>("parameters");
    // GPT style: QKV 3h², projection h², MLP 2·4h² = 12h² weights; biases 3h + h + 4h + h = 9h; two LayerNorms 4h;
    // so 12h² + 13h.
    // GPT-2 small, h = 768: 12·589 824 + 13·768 = 7 077 888 + 9 984 = 7 087 872.
    QTest::newRow("gpt2-small") << QStringLiteral("gpt2-small") << 7087872.0;
    // GPT-3, h = 12288: 12·150 994 944 + 13·12 288 = 1 811 939 328 + 159 744 = 1 812 099 072.
    QTest::newRow("gpt3-175b") << QStringLiteral("gpt3-175b") << 1812099072.0;
    // Korthikanti's 22B, h = 6144: 12·37 748 736 + 79 872 = 453 064 704.
    QTest::newRow("korthikanti-22b") << QStringLiteral("korthikanti-22b") << 453064704.0;
}

void TestModelCosts::gptStyleLayerParameters() {
    QFETCH(QString, model);
    QFETCH(double, parameters);
    QCOMPARE_EQ(parasight::layer_parameters(model_named(model)), parameters);
}

void TestModelCosts::gpt3ModelParameters() {
    // 96 layers · 1 812 099 072 = 173 961 510 912, plus the tied 51200 × 12288 table = 629 145 600, plus the final
    // LayerNorm 2·12288 = 24 576: 174 590 681 088 ≈ 174.6e9 (Brown 2020 Table 2.1 says 175.0B).
    const ModelSpec model = preset_model("gpt3-175b");
    QVERIFY(model.tie_embeddings);
    QCOMPARE_EQ(parasight::embedding_parameters(model), 629145600.0);
    QCOMPARE_EQ(parasight::model_parameters(model), 174590681088.0);
    PS_COMPARE_RELATIVE(parasight::model_parameters(model), 174.6e9, 1e-3);
}

void TestModelCosts::llamaStyleParameters() {
    // Llama style: RMSNorm (one scale of h each, two per layer), no biases.
    // Llama 3 8B, h = 4096, kv width 1024, F = 14336:
    //   attention h·(h + 2·1024) + h² = 25 165 824 + 16 777 216 = 41 943 040
    //   MLP 3·h·F = 3·4096·14336 = 176 160 768
    //   norms 2h = 8 192
    //   layer = 218 112 000
    // Untied embeddings: 2·128256·4096 = 1 050 673 152; the final RMSNorm 4096. Model:
    //   32·218 112 000 + 1 050 673 152 + 4 096 = 8 030 261 248.
    const ModelSpec model = preset_model("llama3-8b");
    QVERIFY(!model.tie_embeddings);
    QCOMPARE_EQ(parasight::layer_parameters(model), 218112000.0);
    QCOMPARE_EQ(parasight::embedding_parameters(model), 1050673152.0);
    QCOMPARE_EQ(parasight::model_parameters(model), 8030261248.0);
}

void TestModelCosts::embeddingTableAndFinalNormParameters() {
    // GPT-3: the 51200 × 12288 table = 629 145 600 parameters, 78 643 200 per rank at tp 8; LayerNorm's scale and
    // shift 2·12288 = 24 576.
    const ModelSpec gpt3 = preset_model("gpt3-175b");
    QCOMPARE_EQ(parasight::embedding_table_parameters(gpt3, 1), 629145600.0);
    QCOMPARE_EQ(parasight::embedding_table_parameters(gpt3, 8), 78643200.0);
    QCOMPARE_EQ(parasight::final_norm_parameters(gpt3), 24576.0);
    // Llama 3 8B: 128256 × 4096 = 525 336 576; RMSNorm's scale alone, 4096.
    const ModelSpec llama = preset_model("llama3-8b");
    QCOMPARE_EQ(parasight::embedding_table_parameters(llama, 1), 525336576.0);
    QCOMPARE_EQ(parasight::final_norm_parameters(llama), 4096.0);
}

void TestModelCosts::modelParametersMatchPublishedCounts_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<double>("parameters");
    QTest::addColumn<QString>("missing");
    // model_parameters() promises "every parameter of the model". The presets' own comments count more:
    // Llama 3 8B: 8 030 261 248 (the released checkpoint; presets/models/llama3-8b.yaml) = the 8 030 257 152 above
    // plus the final RMSNorm's h = 4096 scale.
    QTest::newRow("llama3-8b") << QStringLiteral("llama3-8b") << 8030261248.0
                               << QStringLiteral("the final RMSNorm (h = 4096)");
    // GPT-3 175B with vocab 51200: 174.62B (presets/models/gpt3-175b.yaml) = 174 590 656 512 + 2048 learned positions
    // · 12288 (25 165 824) + the final LayerNorm 2h (24 576) = 174 615 846 912.
    QTest::newRow("gpt3-175b") << QStringLiteral("gpt3-175b") << 174615846912.0
                               << QStringLiteral("the learned position embeddings (2048 x 12288) and the final LayerNorm (2h)");
}

void TestModelCosts::modelParametersMatchPublishedCounts() {
    QFETCH(QString, model);
    QFETCH(double, parameters);
    QFETCH(QString, missing);
    const double actual = parasight::model_parameters(model_named(model));
    // The difference is tiny (5e-7 and 1.4e-4 relative) but the function is documented as "every parameter".
    // Learned position tables are documented as not counted (GPT-3: 2048·12288 = 25 165 824, 1.4e-4 relative).
    QEXPECT_FAIL("gpt3-175b", "model_parameters() does not count learned position embeddings", Continue);
    QVERIFY2(actual == parameters, qPrintable(QStringLiteral("%1 counted, %2 published; missing: %3")
                                                  .arg(actual, 0, 'f', 0)
                                                  .arg(parameters, 0, 'f', 0)
                                                  .arg(missing)));
}

// --- activations ---------------------------------------------------------------------------------------------------

void TestModelCosts::activationBytesKorthikantiTable2_data() {
    QTest::addColumn<int>("tp");
    QTest::addColumn<bool>("sequence_parallel");
    QTest::addColumn<Recompute>("recompute");
    QTest::addColumn<double>("bytes");
    // Korthikanti 2022 Table 2, 22B layer: h = 6144, a = 64, s = 2048, b = 4, t = 8.
    //   s·b·h = 2048·4·6144 = 50 331 648;  5·a·s/h = 5·64·2048/6144 = 320/3, so s·b·h·5as/h = 5·a·s²·b = 5 368 709 120.
    // No parallelism: sbh·(34 + 5as/h) = 34·50 331 648 + 5 368 709 120 = 1 711 276 032 + 5 368 709 120.
    QTest::newRow("none") << 1 << false << Recompute::none << 7079985152.0;
    // TP t: sbh·(10 + 24/t + 5as/(ht)) = 13·sbh + 5as²b/8 = 654 311 424 + 671 088 640.
    QTest::newRow("tp") << 8 << false << Recompute::none << 1325400064.0;
    // TP + SP: sbh/t·(34 + 5as/h) = 213 909 504 + 671 088 640.
    QTest::newRow("tp+sp") << 8 << true << Recompute::none << 884998144.0;
    // TP + selective: sbh·(10 + 24/t) = 13·sbh.
    QTest::newRow("tp+selective") << 8 << false << Recompute::selective << 654311424.0;
    // TP + SP + selective: 34·sbh/t = 213 909 504.
    QTest::newRow("tp+sp+selective") << 8 << true << Recompute::selective << 213909504.0;
    // Selective without TP: 34·sbh = 1 711 276 032.
    QTest::newRow("selective") << 1 << false << Recompute::selective << 1711276032.0;
    // Full recompute keeps the layer input only: 2·sbh = 100 663 296 ...
    QTest::newRow("full") << 1 << false << Recompute::full << 100663296.0;
    QTest::newRow("tp+full") << 8 << false << Recompute::full << 100663296.0;
    // ... split by t when SP splits the input: 2·sbh/t = 12 582 912.
    QTest::newRow("tp+sp+full") << 8 << true << Recompute::full << 12582912.0;
}

void TestModelCosts::activationBytesWithoutDropout() {
    // Korthikanti's 22B layer trained without dropout: no 1-byte masks after attention and the MLP (sbh each), no
    // attention dropout mask (a·s²·b) or output (2·a·s²·b): 32·sbh + 2·a·s²·b = 1 610 612 736 + 2 147 483 648.
    ModelSpec model = korthikanti_22b();
    model.dropout = false;
    QCOMPARE_EQ(parasight::layer_activation_bytes(model, 4.0, LayerSplit{1, 1, false, Recompute::none}), 3758096384.0);
    // TP 8: the masks were outside the split (10·sbh of Korthikanti's 10 + 24/t less 2): 8·sbh + 24·sbh/8 = 11·sbh =
    // 553 648 128, + 2·a·s²·b/8 = 268 435 456.
    QCOMPARE_EQ(parasight::layer_activation_bytes(model, 4.0, LayerSplit{8, 1, false, Recompute::none}), 822083584.0);
    // Selective recompute of the attention core (scores, softmax, ·V) drops the softmax output with it.
    QCOMPARE_EQ(parasight::layer_activation_bytes(model, 4.0, LayerSplit{8, 1, false, Recompute::selective}),
                553648128.0);
}

void TestModelCosts::activationBytesKorthikantiTable2() {
    QFETCH(int, tp);
    QFETCH(bool, sequence_parallel);
    QFETCH(Recompute, recompute);
    QFETCH(double, bytes);
    const LayerSplit split{tp, 1, sequence_parallel, recompute};
    QCOMPARE_EQ(parasight::layer_activation_bytes(korthikanti_22b(), 4.0, split), bytes);
}

void TestModelCosts::parallelBlocksShareTheirInput() {
    // PaLM §2 "Parallel Layers" (GPT-J's residual): y = x + Attention(LN(x)) + MLP(LN(x)). Korthikanti's 22B layer:
    // the MLP's LayerNorm input (2·sbh) and its own input (2·sbh) are gone — it reads the attention's normed input,
    // kept as QKV's: 30·sbh + 5·a·s²·b = 1 509 949 440 + 5 368 709 120.
    ModelSpec model = korthikanti_22b();
    model.parallel_blocks = true;
    QCOMPARE_EQ(parasight::layer_activation_bytes(model, 4.0, LayerSplit{1, 1, false, Recompute::none}), 6878658560.0);
    // TP 8: of Korthikanti's 10·sbh outside the split 4 go (6 stay), 24·sbh/8 = 3·sbh inside: 9·sbh = 452 984 832,
    // + 5·a·s²·b/8 = 671 088 640.
    QCOMPARE_EQ(parasight::layer_activation_bytes(model, 4.0, LayerSplit{8, 1, false, Recompute::none}), 1124073472.0);
    // One LayerNorm (scale and shift, 2h) fewer per layer; the MLP's norm slot does no work.
    ModelSpec sequential = korthikanti_22b();
    QCOMPARE_EQ(parasight::layer_parameters(sequential) - parasight::layer_parameters(model), 2.0 * 6144);
    const auto work = parasight::transformer_layer_work(model, 4.0, LayerSplit{}, 2.0);
    QCOMPARE_EQ(work.mlp[0].forward.flops + work.mlp[0].forward.memory_bytes, 0.0);
    QCOMPARE_EQ(work.attention[0].forward.memory_bytes, 2.0 * 2048 * 4 * 6144 * 2.0);
}

void TestModelCosts::activationBytesGroupedQuerySwiglu() {
    // The header's generalisation of Korthikanti §4.1 to GQA and SwiGLU, Llama 3 8B, b = 1, s = 8192, no split,
    // unfused attention, trained (as Llama is) without dropout:
    //   attention: QKV input 2sbh, Q 2sbh, K and V 2·2·sbh·(1024/4096) = sbh, projection input 2sbh = 7·sbh, plus
    //     the softmax output 2·a·s²·b (also what ·V reads: no dropout mask or output beside it);
    //   MLP: input 2sbh, gate and up outputs 2·2·sbF, SwiGLU output 2·sbF = 2·sbh + 6·3.5·sbh = 23·sbh;
    //   two RMSNorm inputs 4·sbh.
    //   sbh = 8192·4096 = 33 554 432; 34·sbh = 1 140 850 688; 2·32·8192² = 4 294 967 296; total 5 435 817 984.
    ModelSpec model = preset_model("llama3-8b");
    QVERIFY(!model.dropout);
    QCOMPARE_EQ(parasight::layer_activation_bytes(model, 1.0, LayerSplit{}), 5435817984.0);
    // Context parallelism cp = 2 halves s: sbh → 16 777 216 (34× = 570 425 344), 2·a·(s/2)²·b = 1 073 741 824.
    QCOMPARE_EQ(parasight::layer_activation_bytes(model, 1.0, LayerSplit{1, 2, false, Recompute::none}), 1644167168.0);
    // With dropout, each block's 1-byte mask (sbh each) and the attention's mask and output (a·s²·b + 2·a·s²·b):
    // 36·sbh = 1 207 959 552, 5·32·8192² = 10 737 418 240; total 11 945 377 792.
    model.dropout = true;
    QCOMPARE_EQ(parasight::layer_activation_bytes(model, 1.0, LayerSplit{}), 11945377792.0);
}

void TestModelCosts::selectiveOpKeepsTheSavedMatmulOutputs() {
    // torchtitan's selective op AC (parallelize_llama.py at 157a12c56): a layer's matmuls in forward order wq wk wv wo
    // w1 w3 w2; every odd one's output is saved, every second one (wk, wo, w3) and every element-wise operation is
    // recomputed; SDPA's output is saved. Llama 3 70B (h 8192, 64 heads, 8 kv heads, F 28672 = 3.5h), b = 1,
    // s = 8192, fused attention, no split: sbh = 67 108 864.
    //   kept: the layer's input 2sbh, Q 2sbh, V 2·sbh/8, SDPA's output 2sbh and its log-sum-exp 4·a·s·b =
    //   2 097 152 B; w1's output 2·3.5·sbh, w2's 2sbh — 15.25·sbh = 1 023 410 176, + 2 097 152 = 1 025 507 328.
    const ModelSpec model = preset_model("llama3-70b");
    const LayerSplit fused{1, 1, false, Recompute::none, parasight::Attention::fused};
    const auto policy = RecomputedOperations::from_blocks(Recompute::selective_op, Recompute::selective_op);
    QCOMPARE_EQ(parasight::layer_activation_bytes(model, 1.0, fused, policy), 1025507328.0);
    // What it redoes: the norms, the activation, the residual adds and wo whole; of QKV the key projection,
    // 1024 / (8192 + 2·1024) = 0.1; of the up projections w3, half; none of w2.
    using parasight::recomputed_share;
    const auto attention = parasight::LayerBlock::attention;
    const auto mlp = parasight::LayerBlock::mlp;
    PS_COMPARE_RELATIVE(recomputed_share(model, policy, attention, 1), 0.1, 1e-15);
    QCOMPARE_EQ(recomputed_share(model, policy, attention, 2), 0.0);
    QCOMPARE_EQ(recomputed_share(model, policy, attention, 5), 1.0);
    QCOMPARE_EQ(recomputed_share(model, policy, mlp, 1), 0.5);
    QCOMPARE_EQ(recomputed_share(model, policy, mlp, 2), 1.0);
    QCOMPARE_EQ(recomputed_share(model, policy, mlp, 3), 0.0);
    // So the recomputed FLOPs: wk 2·s·h·1024 and wo 2·s·h·h; w3 2·s·h·F.
    parasight::ParallelismSpec parallelism;
    DeviceSpec device;
    device.peak_flops[Dtype::bf16] = 312e12;
    device.memory_bandwidth_Bps = 2039e9;
    const auto compute = parasight::make_compute_model(device, Dtype::bf16);
    parasight::TrainingSpec training;
    training.attention = parasight::Attention::fused;
    const auto costs = parasight::transformer_layer_costs(model, parallelism, training, 1.0, compute, 2.0, 2.0, policy);
    const double s = 8192.0, h = 8192.0;
    PS_COMPARE_RELATIVE(costs.attention.recompute_flops, 2.0 * s * h * (1024.0 + h), 1e-15);
    QCOMPARE_EQ(costs.mlp.recompute_flops, 2.0 * s * h * 28672.0);
    // A GeLU MLP has up (the 5th matmul, kept) and down (the 6th, recomputed): GPT-3's MLP keeps its 4h up output
    // and redoes its down projection.
    const ModelSpec gpt3 = preset_model("gpt3-175b");
    QCOMPARE_EQ(recomputed_share(gpt3, policy, mlp, 1), 0.0);
    QCOMPARE_EQ(recomputed_share(gpt3, policy, mlp, 3), 1.0);
    const auto mlp_only = RecomputedOperations::from_blocks(Recompute::none, Recompute::selective_op);
    const auto nothing = RecomputedOperations::from_blocks(Recompute::none, Recompute::none);
    // GPT-3 (h 12288, F 4h, s 2048, b 1): the MLP keeps 2·4·sbh instead of its LayerNorm input 2sbh, its input 2sbh,
    // the GeLU input 8sbh, the down-projection input 8sbh and the dropout mask sbh (21·sbh): 13·sbh less, sbh =
    // 2048 · 12288 = 25 165 824.
    QCOMPARE_EQ(parasight::layer_activation_bytes(gpt3, 1.0, fused, nothing) -
                    parasight::layer_activation_bytes(gpt3, 1.0, fused, mlp_only),
                13.0 * 25165824.0);
}

void TestModelCosts::activationBytesPerRecomputedOperation_data() {
    // Korthikanti's 22B layer (h 6144, a 64, s 2048), b 4, TP 8 with SP, operations recomputed one set at a time.
    //   sbh/t = 2048·4·6144/8 = 6 291 456; a·s²·b/t = 64·2048²·4/8 = 134 217 728.
    //   Nothing recomputed: 34·sbh/t + 5·a·s²·b/t = 213 909 504 + 671 088 640 = 884 998 144.
    QTest::addColumn<std::vector<int>>("attention_ops");
    QTest::addColumn<std::vector<int>>("mlp_ops");
    QTest::addColumn<double>("bytes");
    QTest::newRow("nothing") << std::vector<int>{} << std::vector<int>{} << 884998144.0;
    // The attention core (2, 3, 4) is selective recompute: 34·sbh/t.
    QTest::newRow("attention core") << std::vector<int>{2, 3, 4} << std::vector<int>{} << 213909504.0;
    // softmax_dropout alone drops its output and mask (3·as²b/t) but must keep its input, the scores (2·as²b/t):
    // 884 998 144 − 134 217 728 = 750 780 416.
    QTest::newRow("softmax alone") << std::vector<int>{3} << std::vector<int>{} << 750780416.0;
    // attention_scores alone: Q and K are made by qkv, which is not recomputed, and the scores are kept by nobody:
    // nothing is dropped.
    QTest::newRow("scores alone") << std::vector<int>{2} << std::vector<int>{} << 884998144.0;
    // The MLP activation and down projection: the down projection's input, 8·sbh/t = 50 331 648, is dropped.
    QTest::newRow("activation and mlp_down") << std::vector<int>{} << std::vector<int>{2, 3} << 834666496.0;
    // The MLP's dropout + residual alone drops its mask (sbh/t, SP splits it) but keeps its input, the down
    // projection's output (2·sbh/t): 884 998 144 + 6 291 456 = 891 289 600.
    QTest::newRow("mlp dropout alone") << std::vector<int>{} << std::vector<int>{4} << 891289600.0;
    // Every operation of both blocks: only the layer's input, 2·sbh/t = 12 582 912, as full recompute.
    QTest::newRow("everything") << std::vector<int>{0, 1, 2, 3, 4, 5, 6} << std::vector<int>{0, 1, 2, 3, 4}
                                << 12582912.0;
}

void TestModelCosts::activationBytesPerRecomputedOperation() {
    QFETCH(std::vector<int>, attention_ops);
    QFETCH(std::vector<int>, mlp_ops);
    QFETCH(double, bytes);
    const parasight::RecomputedOperations recomputed = recomputed_operations(attention_ops, mlp_ops);
    const LayerSplit split{8, 1, true, Recompute::none};
    QCOMPARE_EQ(parasight::layer_activation_bytes(korthikanti_22b(), 4.0, split, recomputed), bytes);
}

void TestModelCosts::recomputationFreeingNothing_data() {
    // The same 22B layer. An operation frees nothing on its own when leaving it out keeps no more bytes.
    QTest::addColumn<std::vector<int>>("attention_ops");
    QTest::addColumn<std::vector<int>>("mlp_ops");
    QTest::addColumn<QStringList>("idle");
    // The attention core: without the scores, softmax must keep its input (+2·as²b/t); without softmax, its output,
    // mask and the dropout output stay (+5·as²b/t − the scores no longer needed); without ·V, the dropout output stays.
    QTest::newRow("attention core") << std::vector<int>{2, 3, 4} << std::vector<int>{} << QStringList{};
    // Whole blocks: leaving any operation out keeps its input again.
    QTest::newRow("everything") << std::vector<int>{0, 1, 2, 3, 4, 5, 6} << std::vector<int>{0, 1, 2, 3, 4}
                                << QStringList{};
    // The activation alone: its output is kept for mlp_down, which is not recomputed (834 666 496 B either way minus
    // nothing) — idle. With mlp_down as well, each is needed.
    QTest::newRow("activation alone") << std::vector<int>{} << std::vector<int>{2}
                                      << QStringList{QStringLiteral("mlp.activation")};
    QTest::newRow("activation and mlp_down") << std::vector<int>{} << std::vector<int>{2, 3} << QStringList{};
    // The scores alone: Q and K come from qkv and are kept for the scores' own backward; nobody keeps the scores.
    QTest::newRow("scores alone") << std::vector<int>{2} << std::vector<int>{}
                                  << QStringList{QStringLiteral("attention.attention_scores")};
    // Without dropout (Llama, MPT) the residual add keeps nothing for its backward (an add needs no input back), so
    // recomputing it frees nothing — reported where operations were chosen, not where the block is re-run whole (full
    // recompute, which re-runs the block from its input).
    QTest::newRow("residual add, no dropout") << std::vector<int>{} << std::vector<int>{3, 4}
                                              << QStringList{QStringLiteral("mlp.dropout_residual")};
    QTest::newRow("whole blocks, no dropout") << std::vector<int>{0, 1, 2, 3, 4, 5, 6}
                                              << std::vector<int>{0, 1, 2, 3, 4} << QStringList{};
}

void TestModelCosts::recomputationFreeingNothing() {
    QFETCH(std::vector<int>, attention_ops);
    QFETCH(std::vector<int>, mlp_ops);
    QFETCH(QStringList, idle);
    const parasight::RecomputedOperations recomputed = recomputed_operations(attention_ops, mlp_ops);
    const LayerSplit split{8, 1, true, Recompute::none};
    ModelSpec model = korthikanti_22b();
    model.dropout = !QByteArray(QTest::currentDataTag()).endsWith("no dropout");
    QStringList found;
    for (const auto& operation : parasight::recomputation_freeing_nothing(model, 4.0, split, recomputed)) {
        found << QString::fromStdString(parasight::operation_path(operation));
    }
    QCOMPARE(found, idle);
}

void TestModelCosts::mixtureOfExpertsCapacity() {
    // A GPT-style layer with 8 experts, top-2 routing and capacity factor 1.25: every MLP works on and keeps
    // 2 · 1.25 = 2.5 tokens per token of the batch. h 1024, a 16, s 1024, b 1, F 4096 (gelu), no split.
    ModelSpec model;
    model.layers = 2;
    model.hidden = 1024;
    model.heads = 16;
    model.kv_heads = 16;
    model.ffn_hidden = 4096;
    model.seq_len = 1024;
    model.vocab = 1000;
    model.experts = 8;
    model.experts_per_token = 2;
    model.capacity_factor = 1.25;
    QCOMPARE_EQ(parasight::expert_token_ratio(model), 2.5);
    // Activations: the dense 34·sbh + 5·a·s²·b (sbh = 1 048 576: 35 651 584 + 83 886 080 = 119 537 664), plus the
    // routed copies of the MLP input (2·sbh → 5·sbh) and both 4h-wide intermediates (8·sbh → 20·sbh each):
    // + 27·sbh = 28 311 552, so 147 849 216.
    QCOMPARE_EQ(parasight::layer_activation_bytes(model, 1.0, LayerSplit{}), 147849216.0);
    // The up projection runs on 2.5 · 1024 = 2560 tokens: 2 · 2560 · 4096 · 1024 = 21 474 836 480 FLOPs; the
    // dispatch all-to-all moves 2560 tokens of 1024 bf16 values: 5 242 880 B.
    const auto work = parasight::transformer_layer_work(model, 1.0, LayerSplit{}, 2.0);
    QCOMPARE_EQ(work.mlp[1].forward.flops, 21474836480.0);
    QCOMPARE_EQ(work.ep_collective_bytes, 5242880.0);
    // Model FLOPs (MFU's numerator) count the routed work, not the padding: the MLP's 2 · 2 · 1024 · 1024 · 4096 · 2
    // (two matrices, top-2) = 34 359 738 368 of them.
    QCOMPARE_EQ(parasight::layer_forward_flops(model, 1.0).mlp, 34359738368.0);
}

void TestModelCosts::fusedAttentionKernel() {
    // Llama 3 8B at 8192 tokens, micro-batch 1, no TP, bf16: 32 query heads of width 128, 8 key/value heads; first
    // without the causal mask (every query sees every key), then with it.
    ModelSpec model = preset_model("llama3-8b");
    model.causal_attention = false;
    const LayerSplit fused{1, 1, false, Recompute::none, parasight::Attention::fused};
    const LayerSplit unfused{1, 1, false, Recompute::none, parasight::Attention::unfused};
    const auto work = parasight::transformer_layer_work(model, 1.0, fused, 2.0);
    const auto& kernel = work.attention[2];
    // Forward: QKᵀ and ·V, 4 · 32 heads · 8192 queries · 8192 keys · 128 = 2^40 FLOPs — Narayanan's 4·b·s²·h, the
    // unfused core's. Backward (Dao 2023 §3.1.2): the scores again, then dV, dP, dQ, dK: five matmuls, 2.5 · 2^40.
    QCOMPARE_EQ(kernel.forward.flops, 1099511627776.0);
    QCOMPARE_EQ(kernel.forward.flops, parasight::layer_forward_flops(model, 1.0).attention_core);
    QCOMPARE_EQ(kernel.backward.flops, 2748779069440.0);
    // Traffic: Q and O are 32 · 8192 · 128 · 2 B = 2^26 B each, K and V a quarter of that (8 of 32 heads), the fp32
    // log-sum-exp 32 · 8192 · 4 = 2^20 B. Forward reads Q, K, V and writes O and the log-sum-exp:
    // 2·2^26 + 2·2^24 + 2^20 = 168 820 736 B; backward reads Q, K, V, O, dO, the log-sum-exp and writes dQ, dK, dV:
    // 4·2^26 + 4·2^24 + 2^20 = 336 592 896 B. Nothing s²-sized.
    QCOMPARE_EQ(kernel.forward.memory_bytes, 168820736.0);
    QCOMPARE_EQ(kernel.backward.memory_bytes, 336592896.0);
    // The softmax + dropout and ·V slots run inside the kernel.
    for (const std::size_t slot : {std::size_t{3}, std::size_t{4}}) {
        QCOMPARE_EQ(work.attention[slot].forward.flops + work.attention[slot].forward.memory_bytes, 0.0);
        QCOMPARE_EQ(work.attention[slot].backward.flops + work.attention[slot].backward.memory_bytes, 0.0);
    }
    // The kernel runs at the device's attention_efficiency: on 312 TFLOP/s at 0.6, 2^40 / 187.2e12 s (its traffic
    // takes 168 820 736 / (2039e9 · 0.85) ≈ 0.1 ms of the ≈ 5.9 ms).
    DeviceSpec device;
    device.peak_flops[Dtype::bf16] = 312e12;
    device.memory_bandwidth_Bps = 2039e9;
    const auto compute = parasight::make_compute_model(device, Dtype::bf16);
    QCOMPARE_EQ(compute.time_s(kernel.forward), 1099511627776.0 / (312e12 * 0.6));
    // Activations: no s² scores (the unfused core's softmax output, 2·a·s²·b for Llama, trained without dropout),
    // but one fp32 log-sum-exp per query and head, 4·a·s·b = 2^20 B. So the fused layer keeps what the unfused one
    // keeps with its core recomputed (selective), plus that.
    const auto selective = RecomputedOperations::from_blocks(Recompute::selective, Recompute::none);
    const double kept_fused = parasight::layer_activation_bytes(model, 1.0, fused, RecomputedOperations{});
    QCOMPARE_EQ(kept_fused, parasight::layer_activation_bytes(model, 1.0, unfused, selective) + 1048576.0);
    QCOMPARE_EQ(parasight::layer_activation_bytes(model, 1.0, unfused, RecomputedOperations{}) - kept_fused,
                2.0 * 32 * 8192.0 * 8192.0 - 1048576.0);

    // With the causal mask (the preset's) the kernel skips the tiles above the diagonal and computes the 64 tiles of
    // 128 on it whole: 8192²/2 + 64 · 8192 scores per head, 4160 keys a query, so 4 · 32 · 8192 · 4160 · 128 =
    // 558 345 748 480 FLOPs forward, 2.5 times that backward; its traffic is the same (it reads every K and V). Model
    // FLOPs (MFU) still count the whole square, as Megatron does.
    model.causal_attention = true;
    const auto causal = parasight::transformer_layer_work(model, 1.0, fused, 2.0).attention[2];
    QCOMPARE_EQ(causal.forward.flops, 558345748480.0);
    QCOMPARE_EQ(causal.backward.flops, 2.5 * 558345748480.0);
    QCOMPARE_EQ(causal.forward.matmuls[0].n, 4160.0);
    QCOMPARE_EQ(causal.forward.memory_bytes, kernel.forward.memory_bytes);
    QCOMPARE_EQ(parasight::layer_forward_flops(model, 1.0).attention_core, 1099511627776.0);
    // The unfused core computes every score either way.
    const auto unfused_work = parasight::transformer_layer_work(model, 1.0, unfused, 2.0);
    QCOMPARE_EQ(unfused_work.attention[2].forward.flops, 1099511627776.0 / 2.0);  // Q·Kᵀ: half of the two matmuls
    // Shorter than one tile a query computes every key: 64 tokens, min(64, 32 + 64) = 64.
    QCOMPARE_EQ(parasight::fused_attention_keys_per_query(64.0, true), 64.0);
    QCOMPARE_EQ(parasight::fused_attention_keys_per_query(2048.0, true), 1088.0);
    QCOMPARE_EQ(parasight::fused_attention_keys_per_query(2048.0, false), 2048.0);
}

void TestModelCosts::eagerKernelsMoveWhatPyTorchMoves() {
    // training.eager_kernels: the memory-bound kernels as eager PyTorch ran them on an H100 (bytes per element at the
    // copy's bandwidth, tests/data/calibration/h100-sxm-2026-11-27). Llama 3 8B (SwiGLU, no biases, no dropout) at
    // 8192 tokens, micro-batch 1, no TP, bf16: activations of 8192 · 4096 = 33 554 432 elements, the MLP's
    // intermediate 8192 · 14336 = 117 440 512.
    const ModelSpec llama = preset_model("llama3-8b");
    LayerSplit eager{1, 1, false, Recompute::none, parasight::Attention::fused};
    eager.eager_kernels = true;
    const auto work = parasight::transformer_layer_work(llama, 1.0, eager, 2.0);
    // RMSNorm written out in fp32: 56.10 B forward, 114.03 backward per element (fused: 4 and 8).
    QCOMPARE_EQ(work.attention[0].forward.memory_bytes, 33554432.0 * 56.10);
    QCOMPARE_EQ(work.attention[0].backward.memory_bytes, 33554432.0 * 114.03);
    QCOMPARE_EQ(work.mlp[0].forward.memory_bytes, 33554432.0 * 56.10);
    // silu(gate) · up: 10.33 and 18.94 B per gate element (fused: 6 and 12).
    QCOMPARE_EQ(work.mlp[2].forward.memory_bytes, 117440512.0 * 10.33);
    QCOMPARE_EQ(work.mlp[2].backward.memory_bytes, 117440512.0 * 18.94);
    // The residual add alone (no bias, no dropout): 6.09 forward, 2.79 backward (fused: 6 and 12).
    QCOMPARE_EQ(work.attention[6].forward.memory_bytes, 33554432.0 * 6.09);
    QCOMPARE_EQ(work.mlp[4].backward.memory_bytes, 33554432.0 * 2.79);
    // The GEMMs and the attention kernel are the same either way.
    const auto fused = parasight::transformer_layer_work(llama, 1.0, LayerSplit{1, 1, false, Recompute::none,
                                                                                parasight::Attention::fused},
                                                          2.0);
    QCOMPARE_EQ(work.attention[1].forward.flops, fused.attention[1].forward.flops);
    QCOMPARE_EQ(work.attention[2].forward.memory_bytes, fused.attention[2].forward.memory_bytes);
    QCOMPARE_EQ(fused.attention[0].forward.memory_bytes, 2.0 * 33554432.0 * 2.0);

    // GPT-2 small (GeLU, biases, dropout) at 1024 tokens: LayerNorm 6.00 B, GeLU 4.38 over the 3072-wide
    // intermediate, bias + dropout + residual 20.15 forward and 8.07 backward per element.
    const ModelSpec gpt2 = preset_model("gpt2-small");
    const auto small = parasight::transformer_layer_work(gpt2, 1.0, eager, 2.0);
    QCOMPARE_EQ(small.attention[0].forward.memory_bytes, 1024.0 * 768.0 * 6.00);
    QCOMPARE_EQ(small.mlp[2].forward.memory_bytes, 1024.0 * 3072.0 * 4.38);
    QCOMPARE_EQ(small.attention[6].forward.memory_bytes, 1024.0 * 768.0 * 20.15);
    QCOMPARE_EQ(small.attention[6].backward.memory_bytes, 1024.0 * 768.0 * 8.07);

    // The loss: PyTorch's cross-entropy over the fp32 logits runs after the logits GEMM, 25.86 B forward and 27.65 B
    // backward per logit, 8192 · 128256 = 1 050 673 152 of them; its time adds to the GEMM's. On an A100-like device
    // (312 TFLOP/s, 2039 GB/s at 0.85) the forward is the GEMM's roofline plus 1 050 673 152 · 25.86 / (2039e9 · 0.85).
    const auto logits = parasight::logits_operation(llama, 1.0, 1, 2.0, true);
    const auto plain = parasight::logits_operation(llama, 1.0, 1, 2.0, false);
    QCOMPARE_EQ(logits.forward.trailing_memory_bytes, 1050673152.0 * 25.86);
    QCOMPARE_EQ(logits.backward.trailing_memory_bytes, 1050673152.0 * 27.65);
    QCOMPARE_EQ(plain.forward.memory_bytes - logits.forward.memory_bytes, 1050673152.0 * 4.0);  // the fused count
    DeviceSpec device;
    device.peak_flops[Dtype::bf16] = 312e12;
    device.memory_bandwidth_Bps = 2039e9;
    const auto compute = parasight::make_compute_model(device, Dtype::bf16);
    parasight::LayerOperation gemm_only = logits;
    gemm_only.forward.trailing_memory_bytes = 0.0;
    PS_COMPARE_RELATIVE(compute.time_s(logits.forward),
                        compute.time_s(gemm_only.forward) + 1050673152.0 * 25.86 / (2039e9 * 0.85), 1e-14);
}

void TestModelCosts::memoryBoundPartOfAKernel_data() {
    QTest::addColumn<double>("flops");
    QTest::addColumn<double>("memory_bytes");
    QTest::addColumn<double>("trailing_bytes");
    QTest::addColumn<double>("measured_s");  // 0: none in the table
    QTest::addColumn<double>("total_s");
    QTest::addColumn<double>("memory_bound_s");
    // A device of 100 TFLOP/s at 0.5 (50 TFLOP/s) and 1000 GB/s at 0.8 (800 GB/s): 2.5e10 FLOPs take 0.5 ms, 8e8 B
    // take 1 ms. The memory-bound part is max(0, bytes' time − FLOPs' time) + the trailing bytes' time.
    QTest::newRow("a norm: all of it") << 0.0 << 8e8 << 0.0 << 0.0 << 1e-3 << 1e-3;
    QTest::newRow("compute-bound: none") << 1e11 << 8e8 << 0.0 << 0.0 << 2e-3 << 0.0;
    QTest::newRow("memory-bound: the excess") << 2.5e10 << 8e8 << 0.0 << 0.0 << 1e-3 << 0.5e-3;
    // 4e8 trailing bytes take 0.5 ms after the 2 ms GEMM.
    QTest::newRow("trailing kernels") << 1e11 << 8e8 << 4e8 << 0.0 << 2.5e-3 << 0.5e-3;
    // Measured at 3 ms: as memory-bound as the roofline's 0.5 of 1 ms, 1.5 ms.
    QTest::newRow("measured") << 2.5e10 << 8e8 << 0.0 << 3e-3 << 3e-3 << 1.5e-3;
}

void TestModelCosts::memoryBoundPartOfAKernel() {
    QFETCH(double, flops);
    QFETCH(double, memory_bytes);
    QFETCH(double, trailing_bytes);
    QFETCH(double, measured_s);
    QFETCH(double, total_s);
    QFETCH(double, memory_bound_s);
    parasight::ComputeModel compute;
    compute.peak_flops = compute.other_operations_peak_flops = 100e12;
    compute.matmul_efficiency = 0.5;
    compute.memory_bandwidth_Bps = 1000e9;
    compute.memory_efficiency = 0.8;
    if (measured_s > 0.0) compute.measured_times_s[parasight::measured_key("norm", Pass::forward)] = measured_s;
    parasight::OperationWork work;
    work.flops = flops;
    work.memory_bytes = memory_bytes;
    work.trailing_memory_bytes = trailing_bytes;
    const parasight::KernelTime time = compute.kernel_time("norm", Pass::forward, work);
    PS_COMPARE_RELATIVE(time.total_s, total_s, 1e-12);
    if (memory_bound_s == 0.0) {
        QCOMPARE_EQ(time.memory_bound_s, 0.0);
    } else {
        PS_COMPARE_RELATIVE(time.memory_bound_s, memory_bound_s, 1e-12);
    }
    QCOMPARE_EQ(compute.time_s("norm", Pass::forward, work), time.total_s);
}

void TestModelCosts::fp8RunsOnlyTheLinearGemmsInFp8() {
    // Transformer Engine's fp8 recipe: the linear layers' GEMMs take fp8 inputs, the rest stays bf16. On an H100-like
    // device (fp8 1978.9, bf16 989.4 TFLOP/s, 3350 GB/s), Llama 3 8B at 8192 tokens, micro-batch 1, no TP.
    ModelSpec model = preset_model("llama3-8b");
    model.causal_attention = false;  // the whole square, 2^40 FLOPs, for round numbers below
    const LayerSplit fused{1, 1, false, Recompute::none, parasight::Attention::fused};
    const auto work = parasight::transformer_layer_work(model, 1.0, fused, 2.0);
    DeviceSpec device;
    device.peak_flops[Dtype::fp8] = 1978.9e12;
    device.peak_flops[Dtype::bf16] = 989.4e12;
    device.memory_bandwidth_Bps = 3350e9;
    const auto fp8 = parasight::make_compute_model(device, Dtype::fp8);
    // QKV: 8192 × (4096 + 2·1024) × 4096 = 2 · 8192 · 6144 · 4096 FLOPs at the fp8 peak × 0.8 · 4096 / (4096 + 128).
    const auto& qkv = work.attention[1].forward;
    QVERIFY(qkv.linear_gemm);
    PS_COMPARE_RELATIVE(fp8.time_s(qkv), 2.0 * 8192 * 6144 * 4096 / (1978.9e12 * 0.8 * 4096 / (4096 + 128)), 1e-12);
    // The MLP's down projection too; its backward as well.
    QVERIFY(work.mlp[3].forward.linear_gemm && work.mlp[3].backward.linear_gemm);
    // The fused attention core stays bf16: 2^40 FLOPs at 989.4e12 · 0.6, not at the fp8 peak.
    const auto& core = work.attention[2].forward;
    QVERIFY(!core.linear_gemm);
    PS_COMPARE_RELATIVE(fp8.time_s(core), 1099511627776.0 / (989.4e12 * 0.6), 1e-12);
    // So does the logits projection (Megatron-Core's output layer is not a Transformer Engine linear).
    QVERIFY(!parasight::logits_operation(model, 1.0, 1, 2.0, false).forward.linear_gemm);
    // Trained in bf16, everything runs at the bf16 peak as before.
    const auto bf16 = parasight::make_compute_model(device, Dtype::bf16);
    PS_COMPARE_RELATIVE(bf16.time_s(qkv) / fp8.time_s(qkv), 1978.9 / 989.4, 1e-12);
    QCOMPARE_EQ(bf16.time_s(core), fp8.time_s(core));
    // A device whose fp8 GEMMs reach less of their peak (h100-sxm-measured: 0.624 where bf16 reaches 0.68): the fp8
    // linear GEMMs run at 0.7 · 4096 / (4096 + 128) of the fp8 peak here; the rest, and bf16 training, as before.
    device.fp8_matmul_efficiency = 0.7;
    const auto fp8_measured = parasight::make_compute_model(device, Dtype::fp8);
    PS_COMPARE_RELATIVE(fp8_measured.time_s(qkv), 2.0 * 8192 * 6144 * 4096 / (1978.9e12 * 0.7 * 4096 / (4096 + 128)),
                        1e-12);
    PS_COMPARE_RELATIVE(fp8_measured.time_s(work.mlp[3].backward) / fp8.time_s(work.mlp[3].backward), 0.8 / 0.7, 1e-12);
    QCOMPARE_EQ(fp8_measured.time_s(core), fp8.time_s(core));
    QCOMPARE_EQ(parasight::make_compute_model(device, Dtype::bf16).time_s(qkv), bf16.time_s(qkv));
}

void TestModelCosts::weightGradientsAreHalfOfEachLinearsBackward() {
    // A GPT-3 layer (h 12288, s 2048, b 1, no TP, attention unfused). Forward FLOPs of its linears: QKV 2·s·h·3h,
    // output 2·s·h², MLP up and down 2·s·h·4h each. A linear's backward is its input gradient and its weight gradient,
    // each as many FLOPs as its forward, so the weight gradients (Qi et al. 2024's W) are 8·s·h² for the attention
    // block and 16·s·h² for the MLP. The attention core (4·s²·h forward) has no weights: all of its backward,
    // 8·s²·h, is input gradient, as is the linears' other half.
    const ModelSpec model = preset_model("gpt3-175b");
    parasight::ParallelismSpec parallelism;
    DeviceSpec device;
    device.peak_flops[Dtype::bf16] = 312e12;
    device.memory_bandwidth_Bps = 2039e9;
    const auto compute = parasight::make_compute_model(device, Dtype::bf16);
    parasight::TrainingSpec training;
    training.attention = parasight::Attention::unfused;
    const auto costs = parasight::transformer_layer_costs(model, parallelism, training, 1.0, compute, 2.0, 2.0,
                                                          RecomputedOperations{});
    const double s = 2048.0, h = 12288.0;
    QCOMPARE_EQ(costs.attention.weight_gradients_flops, 8.0 * s * h * h);
    QCOMPARE_EQ(costs.mlp.weight_gradients_flops, 16.0 * s * h * h);
    QCOMPARE_EQ(costs.attention.input_gradient_flops(), 8.0 * s * h * h + 8.0 * s * s * h);
    QCOMPARE_EQ(costs.mlp.input_gradient_flops(), 16.0 * s * h * h);
    // Times split the same way: each linear's backward time is halved between the two.
    QVERIFY(costs.attention.weight_gradients.total_s > 0.0);
    PS_COMPARE_RELATIVE(costs.attention.weight_gradients.total_s + costs.attention.input_gradient().total_s,
                        costs.attention.backward.total_s, 1e-15);
}

// A layer's costs on a measured H200 (h200-measured's roofline figures) with the host's time per kernel `launch_s`.
parasight::LayerCosts h200_layer_costs(const ModelSpec& model, bool eager_kernels, double micro_batch,
                                       double launch_s) {
    DeviceSpec device;
    device.peak_flops[Dtype::bf16] = 989.4e12;
    device.memory_bandwidth_Bps = 4800e9;
    device.matmul_efficiency = 0.687;
    device.matmul_half_dim = 213.0;
    device.streaming_multiprocessors = 132;
    device.memory_efficiency = 0.884;
    device.attention_efficiency = 0.599;
    auto compute = parasight::make_compute_model(device, Dtype::bf16);
    compute.kernel_launch_s = launch_s;
    parasight::TrainingSpec training;
    training.eager_kernels = eager_kernels;
    return parasight::transformer_layer_costs(model, parasight::ParallelismSpec{}, training, micro_batch, compute,
                                              2.0, 2.0, RecomputedOperations{});
}

void TestModelCosts::kernelLaunchFloor_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<bool>("eager");
    QTest::addColumn<double>("microBatch");
    QTest::addColumn<int>("forwardKernels");
    QTest::addColumn<int>("backwardKernels");
    QTest::addColumn<bool>("hostBound");
    // The kernels counted by hand from docs/model.md's table (torch.profiler's counts on PyTorch 2.11):
    // GPT-2 small, eager (LayerNorm, biases, GeLU, dropout): attention block norm 1 + QKV 1 + attention 3 (dropout) +
    // projection 1 + bias, dropout and add 3 = 9, MLP block 1 + 1 + GeLU 1 + 1 + 3 = 7, so 16 forward; backward
    // 2 + 4 + 4 + 2 + 3 = 15 and 2 + 4 + 1 + 2 + 3 = 12, so 27 (torch.profiler counted 14 and 31 in the survey's layer,
    // whose attention output is one more copy and whose biases sit in the linears).
    QTest::newRow("gpt2-small eager, micro-batch 1") << QStringLiteral("gpt2-small") << true << 1.0 << 16 << 27 << true;
    // Fused kernels (Megatron's): the bias, dropout and add one kernel each way: 16 - 2·2 = 12 forward,
    // 27 - 2·2 = 23 backward.
    QTest::newRow("gpt2-small fused, micro-batch 1") << QStringLiteral("gpt2-small") << false << 1.0 << 12 << 23 << true;
    // Llama 3 8B, eager: RMSNorm written out in fp32 9 forward and 20 backward, QKV and the others without bias 1 and
    // 2, attention without dropout 2 and 4, the residual add 1 and 0, SwiGLU 2 and 4: per block 9 + 1 + 2 + 1 + 1 = 14
    // and 9 + 1 + 2 + 1 + 1 = 14 forward (28, the survey's Llama-style layer's count), 20 + 2 + 4 + 2 + 0 = 28 twice
    // backward (56, likewise). One sequence of 8192 tokens keeps the GPU busier than the host.
    QTest::newRow("llama3-8b eager, one sequence") << QStringLiteral("llama3-8b") << true << 1.0 << 28 << 56 << false;
}

void TestModelCosts::kernelLaunchFloor() {
    QFETCH(QString, model);
    QFETCH(bool, eager);
    QFETCH(double, microBatch);
    QFETCH(int, forwardKernels);
    QFETCH(int, backwardKernels);
    QFETCH(bool, hostBound);
    const ModelSpec spec = preset_model(model.toStdString());
    const double launch_s = 40.53e-6;  // h200-measured's kernel_launch
    const auto gpu = h200_layer_costs(spec, eager, microBatch, 0.0);
    const auto floored = h200_layer_costs(spec, eager, microBatch, launch_s);
    const double gpu_forward_s = gpu.attention.forward.total_s + gpu.mlp.forward.total_s;
    const double gpu_backward_s = gpu.attention.backward.total_s + gpu.mlp.backward.total_s;
    // A pass takes max(the GPU's time, its kernels × the host's time per kernel).
    const double forward_s = std::max(gpu_forward_s, forwardKernels * launch_s);
    const double backward_s = std::max(gpu_backward_s, backwardKernels * launch_s);
    QCOMPARE_EQ(gpu_forward_s < forwardKernels * launch_s, hostBound);
    QCOMPARE_EQ(gpu_backward_s < backwardKernels * launch_s, hostBound);
    PS_COMPARE_RELATIVE(floored.attention.forward.total_s + floored.mlp.forward.total_s, forward_s, 1e-12);
    PS_COMPARE_RELATIVE(floored.attention.backward.total_s + floored.mlp.backward.total_s, backward_s, 1e-12);
    // What the host-bound warning quotes: both passes as the GPU runs them, and as launched.
    PS_COMPARE_RELATIVE(floored.gpu_pass_s, gpu_forward_s + gpu_backward_s, 1e-12);
    PS_COMPARE_RELATIVE(floored.launched_pass_s, forward_s + backward_s, 1e-12);
    // Each block stretched alike, its parts with it: the attention block's share of the pass and the weight
    // gradients' share of the backward stay as the GPU's times have them.
    PS_COMPARE_RELATIVE(floored.attention.forward.total_s / forward_s, gpu.attention.forward.total_s / gpu_forward_s,
                        1e-12);
    PS_COMPARE_RELATIVE(floored.mlp.weight_gradients.total_s / floored.mlp.backward.total_s,
                        gpu.mlp.weight_gradients.total_s / gpu.mlp.backward.total_s, 1e-12);
    PS_COMPARE_RELATIVE(floored.attention.forward.memory_bound_share(), gpu.attention.forward.memory_bound_share(),
                        1e-12);
    // FLOPs are what the kernels compute, whoever waits.
    QCOMPARE_EQ(floored.attention.forward_flops, gpu.attention.forward_flops);
}

void TestModelCosts::cudaGraphsLaunchAtTheGraphTime() {
    // training.cuda_graphs picks the device's graph_kernel_launch, otherwise its kernel_launch; a device without them
    // charges no floor.
    parasight::Scenario scenario;
    scenario.cluster.device.peak_flops[Dtype::bf16] = 989.4e12;
    scenario.cluster.device.kernel_launch_s = 40.53e-6;
    scenario.cluster.device.graph_kernel_launch_s = 0.8497e-6;
    QCOMPARE_EQ(parasight::make_compute_model(scenario).kernel_launch_s, 40.53e-6);
    scenario.training.cuda_graphs = true;
    QCOMPARE_EQ(parasight::make_compute_model(scenario).kernel_launch_s, 0.8497e-6);
    scenario.cluster.device = DeviceSpec{};
    QCOMPARE_EQ(parasight::make_compute_model(scenario).kernel_launch_s, 0.0);
}

void TestModelCosts::layerModulesAddUpToTheLayer_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("tp");
    QTest::addColumn<int>("ep");
    QTest::addColumn<int>("experts");
    QTest::newRow("gpt3-175b") << QStringLiteral("gpt3-175b") << 1 << 1 << 1;
    QTest::newRow("gpt3-175b tp 8") << QStringLiteral("gpt3-175b") << 8 << 1 << 1;
    QTest::newRow("llama3-8b") << QStringLiteral("llama3-8b") << 1 << 1 << 1;
    QTest::newRow("llama3-8b, 8 experts, tp 2 ep 4") << QStringLiteral("llama3-8b") << 2 << 4 << 8;
}

void TestModelCosts::layerModulesAddUpToTheLayer() {
    QFETCH(QString, model);
    QFETCH(int, tp);
    QFETCH(int, ep);
    QFETCH(int, experts);
    ModelSpec spec = preset_model(model.toStdString());
    spec.experts = experts;
    const auto modules = parasight::layer_module_parameters_on_rank(spec, tp, ep);
    double sum = 0.0;
    for (const double parameters : modules.parameters) sum += parameters;
    PS_COMPARE_RELATIVE(sum, parasight::layer_parameters_on_rank(spec, tp, ep), 1e-15);
    // GPT-3 175B (h 12288, GELU, no TP): QKV 3h² + 3h, output h² + h, MLP up 4h² + 4h, down 4h² + h, norms 2h each.
    if (model == QStringLiteral("gpt3-175b") && tp == 1) {
        const double h = 12288.0;
        QCOMPARE_EQ(modules.parameters[1], 3.0 * h * h + 3.0 * h);
        QCOMPARE_EQ(modules.parameters[2], h * h + h);
        QCOMPARE_EQ(modules.parameters[4], 4.0 * h * h + 4.0 * h);
        QCOMPARE_EQ(modules.parameters[5], 4.0 * h * h + h);
        QCOMPARE_EQ(modules.parameters[0] + modules.parameters[3], 4.0 * h);
    }
}

void TestModelCosts::zbH1Order() {
    // ZB-H1 (Qi et al. 2024 §2.1) on p = 4, m = 6: 1F1B's forwards and backwards (B: input gradients only), stage s
    // running micro-batch k's weight gradient W after micro-batch k + s's backward and the rest after its last.
    // Stage 0: weight gradients straight after their backward.
    QCOMPARE(describe(parasight::pipeline_steps(Schedule::zb_h1, 0, 4, 6, 1)),
             describe(Steps{F(0), F(1), F(2), F(3), B(0), W(0), F(4), B(1), W(1), F(5), B(2), W(2), B(3), W(3), B(4),
                            W(4), B(5), W(5)}));
    // Stage 1: one behind.
    QCOMPARE(describe(parasight::pipeline_steps(Schedule::zb_h1, 1, 4, 6, 1)),
             describe(Steps{F(0), F(1), F(2), B(0), F(3), B(1), W(0), F(4), B(2), W(1), F(5), B(3), W(2), B(4), W(3),
                            B(5), W(4), W(5)}));
    // Stage 3 (last): three behind, so like every stage it has p = 4 micro-batches whose weight gradient is pending
    // at most — the peak 1F1B has on stage 0 (the paper's "same number of in-flight micro-batches").
    const Steps stage3 = parasight::pipeline_steps(Schedule::zb_h1, 3, 4, 6, 1);
    QCOMPARE(describe(stage3), describe(Steps{F(0), B(0), F(1), B(1), F(2), B(2), F(3), B(3), W(0), F(4), B(4), W(1),
                                              F(5), B(5), W(2), W(3), W(4), W(5)}));
    for (int stage = 0; stage < 4; ++stage) {
        int pending = 0;
        int most = 0;
        for (const PipelineStep& step : parasight::pipeline_steps(Schedule::zb_h1, stage, 4, 6, 1)) {
            pending += step.forward ? 1 : step.weight_gradient ? -1 : 0;
            most = std::max(most, pending);
        }
        QCOMPARE(most, 4);
    }
    QVERIFY(parasight::splits_backward(Schedule::zb_h1));
    QVERIFY(!parasight::splits_backward(Schedule::one_f_one_b));
}

void TestModelCosts::modelFlopsPerIterationNarayanan() {
    // Narayanan 2021 §5.1: model FLOPs per iteration without recompute = 72·B·s·l·h²·(1 + s/6h + V/(12·h·l)).
    // GPT-3, B = 1536: 72·1536·2048·96·12288² · (1 + 1/36 + 51200/14155776) = 3.386196746387325e18.
    const ModelSpec model = preset_model("gpt3-175b");
    const double B = 1536.0, s = 2048.0, l = 96.0, h = 12288.0, V = 51200.0;
    const double narayanan = 72.0 * B * s * l * h * h * (1.0 + s / (6.0 * h) + V / (12.0 * h * l));
    PS_COMPARE_RELATIVE(parasight::model_flops_per_iteration(model, B), narayanan, 1e-14);
    PS_COMPARE_RELATIVE(parasight::model_flops_per_iteration(model, B), 3.386196746387325e18, 1e-15);
    // The same expanded: 3·(l·(24Bsh² + 4Bs²h) + 2BshV) = 72Bslh² + 12Bs²lh + 6BshV.
    PS_COMPARE_RELATIVE(parasight::model_flops_per_iteration(model, B),
                        72.0 * B * s * l * h * h + 12.0 * B * s * s * l * h + 6.0 * B * s * h * V, 1e-15);
}

// --- model states --------------------------------------------------------------------------------------------------

void TestModelCosts::modelStateBytesZero_data() {
    QTest::addColumn<Dtype>("dtype");
    QTest::addColumn<Optimizer>("optimizer");
    QTest::addColumn<int>("zero");
    QTest::addColumn<int>("dp");
    QTest::addColumn<double>("weights_bytes");
    QTest::addColumn<double>("gradients_bytes");
    QTest::addColumn<double>("optimizer_bytes");
    QTest::addColumn<double>("total_bytes");
    // ZeRO's Figure 1 example: Ψ = 7.5e9 parameters, N = 64 data-parallel ranks. Every value below is an integer
    // (7.5e9 / 64 = 117 187 500), so the comparisons are exact.
    const double psi = 7.5e9;
    const int n = 64;
    const double psi_n = psi / n;  // 117 187 500
    // Mixed-precision Adam (§3.1, K = 12): 2Ψ fp16 weights, 2Ψ fp16 gradients, 12Ψ of fp32 weights, momentum and
    // variance. The per-device totals are ZeRO's formulas; Figure 1 prints them rounded: 120, 31.4, 16.6, 1.88 GB.
    //   stage 0: 16Ψ = 120 000 000 000
    QTest::newRow("bf16 adam, stage 0: 16Ψ") << Dtype::bf16 << Optimizer::adam << 0 << n << 2 * psi << 2 * psi
                                            << 12 * psi << 120000000000.0;
    //   stage 1 (P_os): 4Ψ + 12Ψ/N = 30 000 000 000 + 1 406 250 000 = 31 406 250 000
    QTest::newRow("bf16 adam, stage 1: 4Ψ + 12Ψ/N") << Dtype::bf16 << Optimizer::adam << 1 << n << 2 * psi << 2 * psi
                                                   << 12 * psi_n << 31406250000.0;
    //   stage 2 (P_os+g): 2Ψ + 14Ψ/N = 15 000 000 000 + 1 640 625 000 = 16 640 625 000
    QTest::newRow("bf16 adam, stage 2: 2Ψ + 14Ψ/N") << Dtype::bf16 << Optimizer::adam << 2 << n << 2 * psi
                                                   << 2 * psi_n << 12 * psi_n << 16640625000.0;
    //   stage 3 (P_os+g+p): 16Ψ/N = 1 875 000 000
    QTest::newRow("bf16 adam, stage 3: 16Ψ/N") << Dtype::bf16 << Optimizer::adam << 3 << n << 2 * psi_n << 2 * psi_n
                                              << 12 * psi_n << 1875000000.0;
    // fp16 and fp8 store 16-bit weights and gradients too (fp8 recipes keep bf16 copies): the same 16Ψ.
    QTest::newRow("fp16 adam, stage 0: 16Ψ") << Dtype::fp16 << Optimizer::adam << 0 << n << 2 * psi << 2 * psi
                                            << 12 * psi << 120000000000.0;
    QTest::newRow("fp8 adam, stage 0: 16Ψ") << Dtype::fp8 << Optimizer::adam << 0 << n << 2 * psi << 2 * psi
                                           << 12 * psi << 120000000000.0;
    // One rank shards nothing away: stage 3 with N = 1 is 16Ψ.
    QTest::newRow("bf16 adam, stage 3, N = 1: 16Ψ") << Dtype::bf16 << Optimizer::adam << 3 << 1 << 2 * psi << 2 * psi
                                                   << 12 * psi << 120000000000.0;
    // fp32 Adam: 4Ψ weights, 4Ψ gradients, 8Ψ of momentum and variance (no master copy): 16Ψ again, split otherwise.
    //   stage 0: 16Ψ = 120 000 000 000
    QTest::newRow("fp32 adam, stage 0: 16Ψ") << Dtype::fp32 << Optimizer::adam << 0 << n << 4 * psi << 4 * psi
                                            << 8 * psi << 120000000000.0;
    //   stage 1: 8Ψ + 8Ψ/N = 60 000 000 000 + 937 500 000 = 60 937 500 000
    QTest::newRow("fp32 adam, stage 1: 8Ψ + 8Ψ/N") << Dtype::fp32 << Optimizer::adam << 1 << n << 4 * psi << 4 * psi
                                                  << 8 * psi_n << 60937500000.0;
    //   stage 2: 4Ψ + 12Ψ/N = 30 000 000 000 + 1 406 250 000 = 31 406 250 000
    QTest::newRow("fp32 adam, stage 2: 4Ψ + 12Ψ/N") << Dtype::fp32 << Optimizer::adam << 2 << n << 4 * psi
                                                   << 4 * psi_n << 8 * psi_n << 31406250000.0;
    //   stage 3: 16Ψ/N = 1 875 000 000
    QTest::newRow("fp32 adam, stage 3: 16Ψ/N") << Dtype::fp32 << Optimizer::adam << 3 << n << 4 * psi_n << 4 * psi_n
                                              << 8 * psi_n << 1875000000.0;
    // Mixed-precision SGD with momentum: 2Ψ, 2Ψ, and 8Ψ of fp32 weights and momentum: 12Ψ.
    //   stage 0: 12Ψ = 90 000 000 000
    QTest::newRow("bf16 sgd, stage 0: 12Ψ") << Dtype::bf16 << Optimizer::sgd << 0 << n << 2 * psi << 2 * psi
                                           << 8 * psi << 90000000000.0;
    //   stage 1: 4Ψ + 8Ψ/N = 30 000 000 000 + 937 500 000 = 30 937 500 000
    QTest::newRow("bf16 sgd, stage 1: 4Ψ + 8Ψ/N") << Dtype::bf16 << Optimizer::sgd << 1 << n << 2 * psi << 2 * psi
                                                 << 8 * psi_n << 30937500000.0;
    //   stage 2: 2Ψ + 10Ψ/N = 15 000 000 000 + 1 171 875 000 = 16 171 875 000
    QTest::newRow("bf16 sgd, stage 2: 2Ψ + 10Ψ/N") << Dtype::bf16 << Optimizer::sgd << 2 << n << 2 * psi
                                                  << 2 * psi_n << 8 * psi_n << 16171875000.0;
    //   stage 3: 12Ψ/N = 1 406 250 000
    QTest::newRow("bf16 sgd, stage 3: 12Ψ/N") << Dtype::bf16 << Optimizer::sgd << 3 << n << 2 * psi_n << 2 * psi_n
                                             << 8 * psi_n << 1406250000.0;
    // fp32 SGD with momentum: 4Ψ, 4Ψ, 4Ψ of momentum: 12Ψ.
    //   stage 0: 12Ψ = 90 000 000 000
    QTest::newRow("fp32 sgd, stage 0: 12Ψ") << Dtype::fp32 << Optimizer::sgd << 0 << n << 4 * psi << 4 * psi
                                           << 4 * psi << 90000000000.0;
    //   stage 1: 8Ψ + 4Ψ/N = 60 000 000 000 + 468 750 000 = 60 468 750 000
    QTest::newRow("fp32 sgd, stage 1: 8Ψ + 4Ψ/N") << Dtype::fp32 << Optimizer::sgd << 1 << n << 4 * psi << 4 * psi
                                                 << 4 * psi_n << 60468750000.0;
    //   stage 2: 4Ψ + 8Ψ/N = 30 000 000 000 + 937 500 000 = 30 937 500 000
    QTest::newRow("fp32 sgd, stage 2: 4Ψ + 8Ψ/N") << Dtype::fp32 << Optimizer::sgd << 2 << n << 4 * psi << 4 * psi_n
                                                 << 4 * psi_n << 30937500000.0;
    //   stage 3: 12Ψ/N = 1 406 250 000
    QTest::newRow("fp32 sgd, stage 3: 12Ψ/N") << Dtype::fp32 << Optimizer::sgd << 3 << n << 4 * psi_n << 4 * psi_n
                                             << 4 * psi_n << 1406250000.0;
}

void TestModelCosts::modelStateBytesZero() {
    QFETCH(Dtype, dtype);
    QFETCH(Optimizer, optimizer);
    QFETCH(int, zero);
    QFETCH(int, dp);
    QFETCH(double, weights_bytes);
    QFETCH(double, gradients_bytes);
    QFETCH(double, optimizer_bytes);
    QFETCH(double, total_bytes);
    parasight::TrainingSpec training;
    training.dtype = dtype;
    training.optimizer = optimizer;
    const parasight::ModelStateBytes states = parasight::model_state_bytes(7.5e9, training, zero, dp);
    QCOMPARE_EQ(states.weights_bytes, weights_bytes);
    QCOMPARE_EQ(states.gradients_bytes, gradients_bytes);
    QCOMPARE_EQ(states.optimizer_bytes, optimizer_bytes);
    QCOMPARE_EQ(states.total_bytes(), total_bytes);
}

void TestModelCosts::modelStateBytesZeroFigure1_data() {
    QTest::addColumn<int>("zero");
    QTest::addColumn<double>("published_GB");
    QTest::addColumn<double>("rounding_GB");  // half a unit of the last digit printed
    // ZeRO Figure 1, Ψ = 7.5e9, N = 64, K = 12, as printed; the exact values are 120, 31.40625, 16.640625 and 1.875.
    QTest::newRow("baseline: 120 GB") << 0 << 120.0 << 0.5;
    QTest::newRow("P_os: 31.4 GB") << 1 << 31.4 << 0.05;
    QTest::newRow("P_os+g: 16.6 GB") << 2 << 16.6 << 0.05;
    QTest::newRow("P_os+g+p: 1.88 GB") << 3 << 1.88 << 0.005;
}

void TestModelCosts::modelStateBytesZeroFigure1() {
    QFETCH(int, zero);
    QFETCH(double, published_GB);
    QFETCH(double, rounding_GB);
    const double total_GB = parasight::model_state_bytes(7.5e9, parasight::TrainingSpec{}, zero, 64).total_bytes() / 1e9;
    QVERIFY2(std::abs(total_GB - published_GB) <= rounding_GB,
             qPrintable(QStringLiteral("%1 GB against %2 GB published").arg(total_GB).arg(published_GB)));
}

void TestModelCosts::fp32GradientsAreFourBytes() {
    // Megatron-LM's bf16 (fp32_gradients): Ψ = 7.5e9, N = 64, Adam. Gradients 4Ψ instead of 2Ψ: stage 0 holds
    // 2Ψ + 4Ψ + 12Ψ = 18Ψ = 135 GB; stage 2 shards them: 2Ψ + 4Ψ/64 + 12Ψ/64 = 15 + 1.875 GB = 16.875 GB.
    parasight::TrainingSpec training;
    training.fp32_gradients = true;
    QCOMPARE_EQ(parasight::gradient_element_bytes(training), 4.0);
    QCOMPARE_EQ(parasight::model_state_bytes(7.5e9, training, 0, 64).gradients_bytes, 30e9);
    QCOMPARE_EQ(parasight::model_state_bytes(7.5e9, training, 0, 64).total_bytes(), 135e9);
    QCOMPARE_EQ(parasight::model_state_bytes(7.5e9, training, 2, 64).total_bytes(), 16.875e9);
    // fp32 training keeps 4-byte gradients either way.
    training.dtype = Dtype::fp32;
    QCOMPARE_EQ(parasight::gradient_element_bytes(training), 4.0);
    training.fp32_gradients = false;
    QCOMPARE_EQ(parasight::gradient_element_bytes(training), 4.0);
}

void TestModelCosts::headWidthSetApartFromHidden() {
    // PaLM-like attention (Chowdhery et al. 2022): hidden 18432, 48 heads of 256 (queries 12288 wide, not 18432), one
    // key/value head (multi-query). Per token and layer: QKV 2·h·(12288 + 2·256) = 2·18432·12800; the core
    // 4·s·12288; the projection 2·12288·18432.
    ModelSpec model = preset_model("gpt3-175b");
    model.hidden = 18432;
    model.heads = 48;
    model.kv_heads = 1;
    model.head_dim = 256;
    model.seq_len = 2048;
    QCOMPARE_EQ(parasight::attention_width(model), 12288.0);
    const auto flops = parasight::layer_forward_flops(model, 1.0);
    QCOMPARE_EQ(flops.qkv, 2.0 * 2048 * 18432 * 12800);
    QCOMPARE_EQ(flops.attention_core, 4.0 * 2048 * 2048 * 12288);
    QCOMPARE_EQ(flops.attention_out, 2.0 * 2048 * 12288 * 18432);
    // The operations at tp 4: QKV [2048 × 18432]·[18432 × 12800/4], the projection [2048 × 12288/4]·[12288/4 × 18432].
    const LayerSplit split{4, 1, false, Recompute::none, parasight::Attention::fused};
    const auto work = parasight::transformer_layer_work(model, 1.0, split, 2.0);
    QCOMPARE_EQ(work.attention[1].forward.flops, 2.0 * 2048 * 3200 * 18432);
    QCOMPARE_EQ(work.attention[5].forward.flops, 2.0 * 2048 * 18432 * 3072);
    // Unset, the head is hidden / heads wide and nothing changes: 18432 / 48 = 384, queries 18432 wide.
    model.head_dim = 0;
    QCOMPARE_EQ(parasight::head_width(model), 384.0);
    QCOMPARE_EQ(parasight::layer_forward_flops(model, 1.0).attention_out, 2.0 * 2048 * 18432 * 18432);
}

void TestModelCosts::optimizerStep_data() {
    QTest::addColumn<Optimizer>("optimizer");
    QTest::addColumn<OptimizerImplementation>("implementation");
    QTest::addColumn<int>("zero");
    QTest::addColumn<Dtype>("dtype");
    QTest::addColumn<bool>("fp32_gradients");
    QTest::addColumn<double>("kernel_bytes");
    QTest::addColumn<double>("bandwidth_share");
    constexpr auto fused = OptimizerImplementation::fused;
    constexpr auto foreach_kernels = OptimizerImplementation::foreach_kernels;
    constexpr auto for_loop = OptimizerImplementation::for_loop;
    // Ψ = 7.5e9, N = 64. Without ZeRO a rank updates all Ψ; from stage 1 on only its shard, Ψ/N = 117 187 500.
    // Fused, mixed-precision Adam streams 28 B per parameter (reads 4 + 8 + a 2-byte gradient, writes 12 + 2), SGD
    // with momentum 20 (reads 4 + 4 + 2, writes 8 + 2), at 0.813 of a copy's bandwidth:
    //   Adam: 28 · 7.5e9 = 210 000 000 000; 28 · 117 187 500 = 3 281 250 000
    //   SGD:  20 · 7.5e9 = 150 000 000 000; 20 · 117 187 500 = 2 343 750 000
    QTest::newRow("adam, stage 0") << Optimizer::adam << fused << 0 << Dtype::bf16 << false << 210000000000.0 << 0.813;
    QTest::newRow("adam, stage 1") << Optimizer::adam << fused << 1 << Dtype::bf16 << false << 3281250000.0 << 0.813;
    QTest::newRow("adam, stage 3") << Optimizer::adam << fused << 3 << Dtype::bf16 << false << 3281250000.0 << 0.813;
    QTest::newRow("sgd, stage 0") << Optimizer::sgd << fused << 0 << Dtype::bf16 << false << 150000000000.0 << 0.813;
    QTest::newRow("sgd, stage 2") << Optimizer::sgd << fused << 2 << Dtype::bf16 << false << 2343750000.0 << 0.813;
    // fp32 gradients are read at 4 bytes: Adam 30 · 7.5e9, SGD 22 · 7.5e9.
    QTest::newRow("adam, fp32 gradients") << Optimizer::adam << fused << 0 << Dtype::bf16 << true << 225000000000.0
                                          << 0.813;
    QTest::newRow("sgd, fp32 gradients") << Optimizer::sgd << fused << 0 << Dtype::bf16 << true << 165000000000.0
                                         << 0.813;
    // fp32 training: no master copy; Adam reads weights, moments and gradient (16) and writes 12 — 28 again; SGD 20.
    QTest::newRow("adam, fp32") << Optimizer::adam << fused << 0 << Dtype::fp32 << false << 210000000000.0 << 0.813;
    QTest::newRow("sgd, fp32") << Optimizer::sgd << fused << 0 << Dtype::fp32 << false << 150000000000.0 << 0.813;
    // PyTorch's AdamW as separate kernels (torch/optim/adam.py), fp32 weights and gradients: w·(1 − lr·wd) reads and
    // writes 4 + 4; m.lerp_(g) 4 + 4 + 4; v·β2 8; v.addcmul_(g, g) 4 + 4 + 4 + 4; sqrt(v) 8; / bias correction 8; + ε 8;
    // w.addcdiv_(m, d) 4 + 4 + 4 + 4 — 84 · 7.5e9 = 630 000 000 000.
    QTest::newRow("adam, foreach, fp32") << Optimizer::adam << foreach_kernels << 0 << Dtype::fp32 << false << 630000000000.0
                                         << 0.891;
    QTest::newRow("adam, for-loop, fp32") << Optimizer::adam << for_loop << 0 << Dtype::fp32 << false
                                          << 630000000000.0 << 1.011;
    // bf16 weights: the gradient is 2 bytes where it is read (three times: 72 + 6 = 78) and the fp32 master weights are
    // cast to bf16 after the update (read 4, write 2): 84 again; with fp32 gradients 72 + 12 + 6 = 90.
    QTest::newRow("adam, for-loop, bf16") << Optimizer::adam << for_loop << 0 << Dtype::bf16 << false
                                          << 630000000000.0 << 1.011;
    QTest::newRow("adam, foreach, fp32 gradients") << Optimizer::adam << foreach_kernels << 1 << Dtype::bf16 << true
                                                   << 90.0 * 117187500.0 << 0.891;
    // SGD with momentum (torch/optim/sgd.py): m·μ 8, m.add_(g) 4 + 4 + 2, w.add_(m) 12 — 30, and the cast 6: 36.
    QTest::newRow("sgd, for-loop, bf16") << Optimizer::sgd << for_loop << 0 << Dtype::bf16 << false
                                         << 36.0 * 7.5e9 << 1.011;
}

void TestModelCosts::optimizerStep() {
    QFETCH(Optimizer, optimizer);
    QFETCH(OptimizerImplementation, implementation);
    QFETCH(int, zero);
    QFETCH(Dtype, dtype);
    QFETCH(bool, fp32_gradients);
    QFETCH(double, kernel_bytes);
    QFETCH(double, bandwidth_share);
    const double parameters = parasight::optimizer_step_parameters(7.5e9, zero, 64);
    QCOMPARE_EQ(parameters, zero == 0 ? 7.5e9 : 117187500.0);
    parasight::TrainingSpec training;
    training.optimizer = optimizer;
    training.optimizer_implementation = implementation;
    training.dtype = dtype;
    training.fp32_gradients = fp32_gradients;
    QCOMPARE_EQ(parasight::optimizer_kernel_bandwidth_share(implementation), bandwidth_share);
    QCOMPARE_EQ(parasight::optimizer_step_bytes(parameters, training), kernel_bytes / bandwidth_share);
}

void TestModelCosts::optimizerStepOnTheMeasuredH100_data() {
    QTest::addColumn<OptimizerImplementation>("implementation");
    QTest::addColumn<double>("measured_s");
    // AdamW over 268 435 456 fp32 parameters in 64 tensors on an H100 SXM (parasight-calibrate --survey, 2026-11-27;
    // tests/data/calibration/h100-sxm-2026-11-27/calibration.json, survey.adamw): the medians of 20 steps.
    QTest::newRow("fused") << OptimizerImplementation::fused << 0.003065583;
    QTest::newRow("foreach") << OptimizerImplementation::foreach_kernels << 0.008391141;
    QTest::newRow("for-loop") << OptimizerImplementation::for_loop << 0.007388822;
}

void TestModelCosts::optimizerStepOnTheMeasuredH100() {
    QFETCH(OptimizerImplementation, implementation);
    QFETCH(double, measured_s);
    // The step's roofline on the measured preset: bytes / (3350 GB/s · memory_efficiency 0.901), e.g. fused 28 ·
    // 268 435 456 / 0.813 / 3 018 350 000 000 = 3.0630 ms against 3.0656 measured. The shares are rounded to three
    // digits and the preset's efficiency too, so within 0.2%.
    parasight::TrainingSpec training;
    training.dtype = Dtype::fp32;
    training.optimizer_implementation = implementation;
    DeviceSpec measured_h100;  // presets/devices/h100-sxm-measured.yaml's figures the step's roofline reads
    measured_h100.peak_flops[Dtype::fp32] = 66.9e12;
    measured_h100.memory_bandwidth_Bps = 3350e9;
    measured_h100.memory_efficiency = 0.901;
    const parasight::ComputeModel compute = parasight::make_compute_model(measured_h100, Dtype::fp32);
    const double bytes = parasight::optimizer_step_bytes(268435456.0, training);
    const double predicted_s = compute.time_s("optimizer", Pass::forward, parasight::OperationWork{0.0, bytes, 0.0});
    QVERIFY2(std::abs(predicted_s / measured_s - 1.0) < 0.002,
             qPrintable(QStringLiteral("%1 s predicted, %2 s measured").arg(predicted_s).arg(measured_s)));
}

// --- pipeline schedules ----------------------------------------------------------------------------------------------

void TestModelCosts::gpipeOrder() {
    // GPipe (Huang 2019): every forward, then every backward, in micro-batch order, on every stage.
    const Steps expected{F(0), F(1), F(2), B(0), B(1), B(2)};
    for (int stage = 0; stage < 4; ++stage) {
        const Steps steps = parasight::pipeline_steps(Schedule::gpipe, stage, 4, 3, 1);
        QVERIFY2(steps == expected, qPrintable(QStringLiteral("stage %1: %2").arg(stage).arg(describe(steps))));
    }
}

void TestModelCosts::oneFOneBHandWorked() {
    // PipeDream-Flush / DAPPLE on p = 4, m = 6.
    // Stage 0: 3 warm-up forwards, then F/B pairs, then the remaining backwards.
    const Steps stage0{F(0), F(1), F(2), F(3), B(0), F(4), B(1), F(5), B(2), B(3), B(4), B(5)};
    // Stage 1: p − s − 1 = 2 warm-up forwards.
    const Steps stage1{F(0), F(1), F(2), B(0), F(3), B(1), F(4), B(2), F(5), B(3), B(4), B(5)};
    // Stage 3 (last): no warm-up, strict alternation from the start.
    const Steps stage3{F(0), B(0), F(1), B(1), F(2), B(2), F(3), B(3), F(4), B(4), F(5), B(5)};
    QCOMPARE(describe(parasight::pipeline_steps(Schedule::one_f_one_b, 0, 4, 6, 1)), describe(stage0));
    QCOMPARE(describe(parasight::pipeline_steps(Schedule::one_f_one_b, 1, 4, 6, 1)), describe(stage1));
    QCOMPARE(describe(parasight::pipeline_steps(Schedule::one_f_one_b, 3, 4, 6, 1)), describe(stage3));
    // Fewer micro-batches than stages: the warm-up is cut at m (p = 4, m = 2, stage 0: F0 F1 then B0 B1).
    QCOMPARE(describe(parasight::pipeline_steps(Schedule::one_f_one_b, 0, 4, 2, 1)),
             describe(Steps{F(0), F(1), B(0), B(1)}));
}

void TestModelCosts::oneFOneBWarmupAndAlternation_data() {
    QTest::addColumn<int>("stages");
    QTest::addColumn<int>("micro_batches");
    for (const auto& [p, m] : std::vector<std::pair<int, int>>{{4, 8}, {4, 4}, {8, 3}, {2, 16}, {16, 32}}) {
        QTest::addRow("p=%d m=%d", p, m) << p << m;
    }
}

void TestModelCosts::oneFOneBWarmupAndAlternation() {
    QFETCH(int, stages);
    QFETCH(int, micro_batches);
    for (int stage = 0; stage < stages; ++stage) {
        const Steps steps = parasight::pipeline_steps(Schedule::one_f_one_b, stage, stages, micro_batches, 1);
        const QString context = QStringLiteral("stage %1: %2").arg(stage).arg(describe(steps));
        QCOMPARE(steps.size(), static_cast<std::size_t>(2 * micro_batches));
        // Warm-up: min(p − s − 1, m) forwards.
        const int warmup = std::min(stages - stage - 1, micro_batches);
        for (int i = 0; i < warmup; ++i) QVERIFY2(steps[static_cast<std::size_t>(i)] == F(i), qPrintable(context));
        // Steady state: F(warmup + k), B(k) strictly alternating until the forwards run out.
        const int steady = micro_batches - warmup;
        for (int k = 0; k < steady; ++k) {
            const auto at = static_cast<std::size_t>(warmup + 2 * k);
            QVERIFY2(steps[at] == F(warmup + k), qPrintable(context));
            QVERIFY2(steps[at + 1] == B(k), qPrintable(context));
        }
        // Cool-down: the remaining backwards in order.
        for (int k = steady; k < micro_batches; ++k) {
            QVERIFY2(steps[static_cast<std::size_t>(warmup + steady + k)] == B(k), qPrintable(context));
        }
        // So at most p − s micro-batches are in flight (forward done, backward not yet).
        int in_flight = 0;
        int most = 0;
        for (const PipelineStep& step : steps) {
            in_flight += step.forward ? 1 : -1;
            most = std::max(most, in_flight);
        }
        QCOMPARE(most, std::min(stages - stage, micro_batches));
    }
}

void TestModelCosts::oneFOneBMaxInFlight() {
    // A strategy-tree cap of 2 ongoing micro-batches on stage 0 of 4: one warm-up forward instead of 3.
    QCOMPARE(describe(parasight::pipeline_steps(Schedule::one_f_one_b, 0, 4, 4, 1, 2)),
             describe(Steps{F(0), F(1), B(0), F(2), B(1), F(3), B(2), B(3)}));
    // A cap above p − s changes nothing.
    QCOMPARE(describe(parasight::pipeline_steps(Schedule::one_f_one_b, 2, 4, 4, 1, 8)),
             describe(parasight::pipeline_steps(Schedule::one_f_one_b, 2, 4, 4, 1)));
}

void TestModelCosts::interleavedMatchesMegatron_data() {
    QTest::addColumn<int>("stage");
    QTest::addColumn<int>("micro_batches");
    QTest::addColumn<int>("group");  // micro_batch_group N; 0: pp
    QTest::addColumn<Steps>("expected");
    // Megatron-LM forward_backward_pipelining_with_interleaving, p = 2, v = 2, m = 4 (8 chunk-steps per rank).
    // get_model_chunk_id(k): (k mod p·v) div p, reversed for backward; the micro-batch of step k is
    // (k div p·v)·p + k mod p. So forwards k = 0..7 are (0,0) (0,1) (1,0) (1,1) (0,2) (0,3) (1,2) (1,3) and backwards
    // (1,0) (1,1) (0,0) (0,1) (1,2) (1,3) (0,2) (0,3).
    // Warm-up: (p − rank − 1)·2 + (v − 1)·p: rank 0 → 4, rank 1 → 2; then forward k+warmup / backward k pairs; then
    // the remaining backwards.
    QTest::newRow("rank 0, m=4") << 0 << 4 << 0
                                 << Steps{F(0, 0), F(0, 1), F(1, 0), F(1, 1),                    // warm-up
                                          F(0, 2), B(1, 0), F(0, 3), B(1, 1), F(1, 2), B(0, 0),  // steady
                                          F(1, 3), B(0, 1),                                      //
                                          B(1, 2), B(1, 3), B(0, 2), B(0, 3)};                   // cool-down
    QTest::newRow("rank 1, m=4") << 1 << 4 << 0
                                 << Steps{F(0, 0), F(0, 1),                                      // warm-up
                                          F(1, 0), B(1, 0), F(1, 1), B(1, 1), F(0, 2), B(0, 0),  // steady
                                          F(0, 3), B(0, 1), F(1, 2), B(1, 2), F(1, 3), B(1, 3),  //
                                          B(0, 2), B(0, 3)};                                     // cool-down
    // m == p: Megatron-LM of 2021 ran every forward first; Megatron-Core (get_pp_rank_microbatches) no longer
    // special-cases it: rank 1 warms up (2 − 1 − 1)·2 + 1·2 = 2 of its 4 chunk-steps. Rank 0's (1·2 + 2 = 4) are all
    // of them.
    QTest::newRow("rank 1, m=p=2") << 1 << 2 << 0
                                   << Steps{F(0, 0), F(0, 1), F(1, 0), B(1, 0), F(1, 1), B(1, 1), B(0, 0), B(0, 1)};
    QTest::newRow("rank 0, m=p=2") << 0 << 2 << 0
                                   << Steps{F(0, 0), F(0, 1), F(1, 0), F(1, 1), B(1, 0), B(1, 1), B(0, 0), B(0, 1)};
    // Megatron-Core's schedule table example "PP2 N3M5 with VP2": groups of N = 3 micro-batches, the last group the
    // remaining 2 (≥ p). Forwards (chunk, micro-batch): (0,0) (0,1) (0,2) (1,0) (1,1) (1,2) (0,3) (0,4) (1,3) (1,4);
    // backwards the same micro-batches with the chunks reversed: (1,0) (1,1) (1,2) (0,0) (0,1) (0,2) (1,3) (1,4) (0,3)
    // (0,4). Warm-up (p − rank − 1)·2 + (v − 1)·N: rank 0 → 5, rank 1 → 3.
    QTest::newRow("rank 0, m=5 N=3") << 0 << 5 << 3
                                     << Steps{F(0, 0), F(0, 1), F(0, 2), F(1, 0), F(1, 1),                    // warm-up
                                              F(1, 2), B(1, 0), F(0, 3), B(1, 1), F(0, 4), B(1, 2),           // steady
                                              F(1, 3), B(0, 0), F(1, 4), B(0, 1),                             //
                                              B(0, 2), B(1, 3), B(1, 4), B(0, 3), B(0, 4)};  // cool-down
    QTest::newRow("rank 1, m=5 N=3") << 1 << 5 << 3
                                     << Steps{F(0, 0), F(0, 1), F(0, 2),                                      // warm-up
                                              F(1, 0), B(1, 0), F(1, 1), B(1, 1), F(1, 2), B(1, 2),           // steady
                                              F(0, 3), B(0, 0), F(0, 4), B(0, 1), F(1, 3), B(0, 2),           //
                                              F(1, 4), B(1, 3),                                               //
                                              B(1, 4), B(0, 3), B(0, 4)};  // cool-down
}

void TestModelCosts::interleavedMatchesMegatron() {
    QFETCH(int, stage);
    QFETCH(int, micro_batches);
    QFETCH(int, group);
    QFETCH(Steps, expected);
    const Steps steps = parasight::pipeline_steps(Schedule::interleaved, stage, 2, micro_batches, 2, 0, group);
    QCOMPARE(describe(steps), describe(expected));
}

void TestModelCosts::everyForwardOnceBeforeItsBackward_data() {
    QTest::addColumn<Schedule>("schedule");
    QTest::addColumn<int>("stages");
    QTest::addColumn<int>("micro_batches");
    QTest::addColumn<int>("chunks");
    QTest::newRow("gpipe p=4 m=8") << Schedule::gpipe << 4 << 8 << 1;
    QTest::newRow("gpipe p=3 m=1") << Schedule::gpipe << 3 << 1 << 1;
    QTest::newRow("1f1b p=4 m=8") << Schedule::one_f_one_b << 4 << 8 << 1;
    QTest::newRow("1f1b p=8 m=3") << Schedule::one_f_one_b << 8 << 3 << 1;
    QTest::newRow("interleaved p=2 v=2 m=4") << Schedule::interleaved << 2 << 4 << 2;
    QTest::newRow("interleaved p=4 v=2 m=8") << Schedule::interleaved << 4 << 8 << 2;
    QTest::newRow("interleaved p=4 v=3 m=12") << Schedule::interleaved << 4 << 12 << 3;
    QTest::newRow("interleaved p=4 v=2 m=4") << Schedule::interleaved << 4 << 4 << 2;
}

void TestModelCosts::everyForwardOnceBeforeItsBackward() {
    QFETCH(Schedule, schedule);
    QFETCH(int, stages);
    QFETCH(int, micro_batches);
    QFETCH(int, chunks);
    for (int stage = 0; stage < stages; ++stage) {
        const Steps steps = parasight::pipeline_steps(schedule, stage, stages, micro_batches, chunks);
        const QString context = QStringLiteral("stage %1: %2").arg(stage).arg(describe(steps));
        std::set<std::pair<int, int>> forwarded;
        std::set<std::pair<int, int>> backwarded;
        for (const PipelineStep& step : steps) {
            QVERIFY2(step.chunk >= 0 && step.chunk < chunks, qPrintable(context));
            QVERIFY2(step.micro_batch >= 0 && step.micro_batch < micro_batches, qPrintable(context));
            const std::pair<int, int> key{step.chunk, step.micro_batch};
            if (step.forward) {
                QVERIFY2(forwarded.insert(key).second, qPrintable(QStringLiteral("forward twice; ") + context));
            } else {
                QVERIFY2(forwarded.count(key) == 1, qPrintable(QStringLiteral("backward before forward; ") + context));
                QVERIFY2(backwarded.insert(key).second, qPrintable(QStringLiteral("backward twice; ") + context));
            }
        }
        // Each of the chunks × micro-batches pairs exactly once each way.
        QCOMPARE(forwarded.size(), static_cast<std::size_t>(chunks * micro_batches));
        QCOMPARE(backwarded.size(), static_cast<std::size_t>(chunks * micro_batches));
    }
}

QTEST_APPLESS_MAIN(TestModelCosts)
#include "test_model_costs.moc"
