// GEMM tiles on a GPU's streaming multiprocessors (core/device/matmul_tiles.h) and the matmul efficiency the compute
// model builds on them (core/device/compute_model.h), against hand-worked values. NVIDIA, "Matrix Multiplication
// Background User's Guide" (2023), §3: tile quantisation (a dimension that is not a multiple of the tile computes the
// whole last tile) and wave quantisation (tiles run one per SM at a time, in waves; the last wave may leave SMs idle —
// its example: A100's 108 SMs, 256 × 128 tiles).

#include "device/compute_model.h"
#include "scenario_file/preset_specs.h"
#include "scenario_file/scenario_loader.h"

#include "numeric_compare.h"

#include <QTest>

using parasight::MatmulShape;
using parasight::MatmulTile;

class TestMatmulTiles : public QObject {
    Q_OBJECT
private slots:
    void tileSpeedFollowsOperandReuse();
    void oneWaveMoreHalvesTheFill();
    void tileQuantisationComputesTheWholeLastTile();
    void cublasPicksTheTileThatFinishesFirst();
    void anOutputUnderOneWaveIsSplitAlongK();
    void efficiencyMultipliesTheFillAndTheDepth();
    void backwardRunsTheInputAndTheWeightGradient();
    void fusedAttentionFillsTheSmsWith128QueryBlocks();
    void gpuPresetsNameTheirStreamingMultiprocessors();
    void h100PresetGivesItsMeasuredBestMatmulTheA100sShare();
};

void TestMatmulTiles::tileSpeedFollowsOperandReuse() {
    // Reuse m·n/(m + n) against 256 × 128's 256·128/384 = 85.33: 128 × 128 64 → 0.75, 256 × 64 51.2 → 0.6,
    // 128 × 64 42.67 → 0.5, 64 × 64 32 → 0.375.
    QCOMPARE_EQ(parasight::tile_speed({256, 128}), 1.0);
    QCOMPARE_EQ(parasight::tile_speed({128, 256}), 1.0);
    PS_COMPARE_RELATIVE(parasight::tile_speed({128, 128}), 0.75, 1e-15);
    PS_COMPARE_RELATIVE(parasight::tile_speed({256, 64}), 0.6, 1e-15);
    PS_COMPARE_RELATIVE(parasight::tile_speed({64, 128}), 0.5, 1e-15);
    PS_COMPARE_RELATIVE(parasight::tile_speed({64, 64}), 0.375, 1e-15);
}

void TestMatmulTiles::oneWaveMoreHalvesTheFill() {
    // 1536 × 2304 in 256 × 128 tiles: 6 · 18 = 108 tiles, one full wave on 108 SMs.
    QCOMPARE_EQ(parasight::tile_fill(1.0, 1536, 2304, {256, 128}, 108), 1.0);
    // 128 columns more (5.6% more work): 6 · 19 = 114 tiles, 2 waves, the second with 6 tiles:
    // 1536 · 2432 / (2 · 108 · 256 · 128) = 3 735 552 / 7 077 888.
    PS_COMPARE_RELATIVE(parasight::tile_fill(1.0, 1536, 2432, {256, 128}, 108), 3735552.0 / 7077888.0, 1e-15);
    // Batched: 4 problems of 768 × 1152 are 4 · 3 · 9 = 108 tiles, one wave again.
    QCOMPARE_EQ(parasight::tile_fill(4.0, 768, 1152, {256, 128}, 108), 1.0);
}

void TestMatmulTiles::tileQuantisationComputesTheWholeLastTile() {
    // 257 × 128 on 256 × 128 tiles: 2 tiles, one nearly empty; on 2 SMs one wave: 257 · 128 / (2 · 256 · 128).
    QCOMPARE_EQ(parasight::tile_fill(1.0, 257, 128, {256, 128}, 2), 257.0 / 512.0);
}

void TestMatmulTiles::cublasPicksTheTileThatFinishesFirst() {
    // 1536 × 2432 over k 1024 on 108 SMs, a tile's fixed cost worth 128 of k (fill × speed × depth efficiency):
    //   256 × 128: 114 tiles, 2 waves: 3735552 / (216 · 32768) = 0.528, · 1024/1152 = 0.469 (not split: 114 tiles
    //     already fill the SMs); 128 × 256: 12 · 10 = 120 tiles, the same;
    //   128 × 128: 228 tiles, 3 waves: 3735552 / (324 · 16384) = 0.704, · 0.75 = 0.528: the same again;
    //   256 × 64: 228 tiles, 0.704 · 0.6 = 0.422; 128 × 64: 456 tiles, 5 waves, 0.844 · 0.5 = 0.422;
    //   64 × 64: 912 tiles, 9 waves, 0.938 · 0.375 = 0.352.
    const parasight::TileChoice tied = parasight::best_tile({1536, 2432, 1024, 1.0}, 108, 128.0);
    PS_COMPARE_RELATIVE(tied.efficiency, 3735552.0 / 7077888.0 * 1024.0 / 1152.0, 1e-14);
    QCOMPARE(tied.split_k, 1);
    // A problem that fills the SMs keeps the largest tile, whole, at its depth efficiency.
    const parasight::TileChoice full = parasight::best_tile({1536, 2304, 1024, 1.0}, 108, 128.0);
    QCOMPARE(full.tile.m, 256);
    QCOMPARE(full.tile.n, 128);
    QCOMPARE(full.split_k, 1);
    PS_COMPARE_RELATIVE(full.efficiency, 1024.0 / 1152.0, 1e-15);
}

void TestMatmulTiles::anOutputUnderOneWaveIsSplitAlongK() {
    // 1280 × 2048 over k 4096: 5 · 16 = 80 tiles of 256 × 128 leave 28 of 108 SMs idle. In 4 slices of 1024: 320
    // tiles, 3 waves, 4 · 1280 · 2048 / (324 · 32768) = 0.988, · 1024/1152 = 0.878 (whole: 80/108 · 4096/4224 =
    // 0.718; in 8 slices: 640 tiles, 6 waves, 0.988 · 512/640 = 0.790).
    const parasight::TileChoice split = parasight::best_tile({1280, 2048, 4096, 1.0}, 108, 128.0);
    QCOMPARE(split.tile.m, 256);
    QCOMPARE(split.tile.n, 128);
    QCOMPARE(split.split_k, 4);
    PS_COMPARE_RELATIVE(split.efficiency, 10485760.0 / 10616832.0 * 1024.0 / 1152.0, 1e-15);
    // ResNet-50's first convolution's weight gradient at batch 64: a 147 × 64 output (7·7·3 by 64 filters) reduced
    // over 64 · 112 · 112 = 802 816 positions. Whole, 64 × 64 tiles make 3 tiles: 9408 / (108 · 4096) = 2% of the
    // SMs. In 32 slices of 25 088: 96 tiles, one wave, 32 · 9408 / (108 · 4096) = 0.681, · 0.375 (the tile's speed) ·
    // 25088 / 25216 = 0.254 — ahead of 64 slices (192 tiles, 2 waves: 0.681 · 0.375 · 12544/12672 = 0.253) and of
    // every larger tile (256 × 64 in 64 slices: 64 · 9408 / (108 · 16384) · 0.6 · 0.990 = 0.202).
    const parasight::TileChoice narrow = parasight::best_tile({147, 64, 802816, 1.0}, 108, 128.0);
    QCOMPARE(narrow.tile.m, 64);
    QCOMPARE(narrow.tile.n, 64);
    QCOMPARE(narrow.split_k, 32);
    PS_COMPARE_RELATIVE(narrow.efficiency, 301056.0 / 442368.0 * 0.375 * 25088.0 / 25216.0, 1e-14);
}

void TestMatmulTiles::efficiencyMultipliesTheFillAndTheDepth() {
    parasight::DeviceSpec device;
    device.peak_flops[parasight::Dtype::bf16] = 312e12;
    device.memory_bandwidth_Bps = 2039e9;
    device.streaming_multiprocessors = 108;  // matmul_efficiency 0.8 and matmul_half_dim 128 by default
    const auto a100 = parasight::make_compute_model(device, parasight::Dtype::bf16);
    // 0.8 · 0.528 · 1024/1152 (the tiles above).
    const MatmulShape shape{1536, 2432, 1024, 1.0};
    PS_COMPARE_RELATIVE(a100.matmul_efficiency_of(shape), 0.8 * 3735552.0 / 7077888.0 * 1024.0 / 1152.0, 1e-14);
    // Its forward time: 2 · 1536 · 2432 · 1024 FLOPs at 312 TFLOP/s times that (its 15.2 MB of traffic take 8.8 us
    // at 2039 GB/s · 0.85, less than the 65 us of compute).
    const parasight::MatmulPasses passes = parasight::matmul_passes(shape, 15.2e6, true);
    PS_COMPARE_RELATIVE(a100.time_s(passes.forward), shape.flops() / (312e12 * a100.matmul_efficiency_of(shape)), 1e-15);
    QVERIFY(a100.time_s(passes.forward) > 65e-6 && a100.time_s(passes.forward) < 66e-6);
    // A device that names no SMs runs it unquantised: 0.8 · 1024 / 1152.
    device.streaming_multiprocessors = 0;
    const auto unquantised = parasight::make_compute_model(device, parasight::Dtype::bf16);
    PS_COMPARE_RELATIVE(unquantised.matmul_efficiency_of(shape), 0.8 * 1024.0 / 1152.0, 1e-15);
}

void TestMatmulTiles::backwardRunsTheInputAndTheWeightGradient() {
    // Forward: 128 tokens × 1024 outputs over 1024 inputs. Backward: the input gradient 128 × 1024 over 1024 and the
    // weight gradient 1024 × 1024 over the 128 tokens; twice the FLOPs and the traffic.
    const parasight::MatmulPasses passes = parasight::matmul_passes({128, 1024, 1024, 1.0}, 1e6, false);
    QCOMPARE(passes.backward.matmuls[0], (MatmulShape{128, 1024, 1024, 1.0}));
    QCOMPARE(passes.backward.matmuls[1], (MatmulShape{1024, 1024, 128, 1.0}));
    QCOMPARE_EQ(passes.backward.flops, 2.0 * passes.forward.flops);
    QCOMPARE_EQ(passes.backward.memory_bytes, 2e6);
    // Without SMs, the depth decides: the input gradient at 0.8 · 1024/1152, the weight gradient at 0.8 · 128/256 =
    // 0.4. Equal FLOPs, so the times are as 1152/(0.8 · 1024) = 1.40625 to 2.5: the weight gradient's share is
    // 2.5 / 3.90625 = 0.64.
    parasight::DeviceSpec device;
    device.peak_flops[parasight::Dtype::bf16] = 312e12;
    device.memory_bandwidth_Bps = 2039e9;
    const auto model = parasight::make_compute_model(device, parasight::Dtype::bf16);
    PS_COMPARE_RELATIVE(model.weight_gradient_share(passes.backward), 0.64, 1e-14);
    PS_COMPARE_RELATIVE(model.time_s(passes.backward),
                        2.0 * 128 * 1024 * 1024 * (1.40625 + 2.5) / 312e12, 1e-14);
    // A forward has no weight gradient: half and half, as FLOPs split.
    QCOMPARE_EQ(model.weight_gradient_share(passes.forward), 0.5);
}

void TestMatmulTiles::fusedAttentionFillsTheSmsWith128QueryBlocks() {
    // FlashAttention-2 (Dao 2023, §3.2): one thread block per 128 queries of each head and sample. 8 problems of 2048
    // queries are 8 · 16 = 128 blocks: two waves on 108 SMs, 128 / 216 of them busy; and 2048 keys a query at width
    // 128: 2048 / (2048 + 400). So 0.6 · 128 / 216 · 2048 / 2448.
    parasight::DeviceSpec device;
    device.peak_flops[parasight::Dtype::bf16] = 312e12;
    device.memory_bandwidth_Bps = 2039e9;
    device.streaming_multiprocessors = 108;
    const auto model = parasight::make_compute_model(device, parasight::Dtype::bf16);
    PS_COMPARE_RELATIVE(model.attention_efficiency_of({2048, 2048, 128, 8.0}), 0.6 * 128.0 / 216.0 * 2048.0 / 2448.0,
                        1e-15);
    // 27 problems of 512 queries: 108 blocks, one wave; 512 keys at width 64: 512 / 912 · (64 / 96) / (128 / 160).
    PS_COMPARE_RELATIVE(model.attention_efficiency_of({512, 512, 64, 27.0}),
                        0.6 * 512.0 / 912.0 * (64.0 / 96.0) / (128.0 / 160.0), 1e-15);
    // The shape factor alone: 1 in the limit of long sequences at width 128, a half at 400 keys.
    QCOMPARE_EQ(parasight::attention_shape_factor(400.0, 128.0), 0.5);
    QVERIFY(parasight::attention_shape_factor(1e12, 128.0) > 1.0 - 1e-9);
    // Without SMs (the TPU preset) the kernel runs at attention_efficiency whatever its shape: the factors were
    // measured on GPU kernels.
    device.streaming_multiprocessors = 0;
    QCOMPARE_EQ(parasight::make_compute_model(device, parasight::Dtype::bf16).attention_efficiency_of({512, 512, 64, 27.0}),
                0.6);
}

void TestMatmulTiles::gpuPresetsNameTheirStreamingMultiprocessors() {
    // From NVIDIA's whitepapers: A100 108, H100 SXM5 132, V100 80; the TPU names none.
    const auto sms = [](const char* device, const char* dtype = "bf16") {
        const std::string text = std::string("schema: 1\nname: t\nmodel: {preset: gpt2-small}\n"
                                             "training: {global_batch: 8, micro_batch: 1, dtype: ") + dtype + "}\n"
                                 "cluster: {device: " + device +
                                 ", topology: [{kind: switch, size: 8, bandwidth: 100 GB/s, latency: 1 us}]}\n"
                                 "parallelism: {dp: 8}\n";
        const parasight::LoadResult loaded = parasight::load_scenario_text(text, "t.yaml");
        return loaded.scenario ? (*loaded.scenario)->cluster.device.streaming_multiprocessors : -1;
    };
    QCOMPARE(sms("a100-80gb"), 108);
    QCOMPARE(sms("h100-sxm"), 132);
    QCOMPARE(sms("v100", "fp16"), 80);
    QCOMPARE(sms("tpu-v4"), 0);
}

void TestMatmulTiles::h100PresetGivesItsMeasuredBestMatmulTheA100sShare() {
    // Bekman, "Machine Learning Engineering", Maximum Achievable Matmul FLOPS table (bf16 torch.mm, MxKxN): A100 SXM
    // 6912x16384x2048 at 267.9 of 312 TFLOP/s (85.9%), H100 SXM 6144x17920x2816 at 792.1 of 989 (80.1%). Both fill
    // whole waves of 256 × 128 tiles (27 · 16 = 432 = 4 · 108; 24 · 22 = 528 = 4 · 132), so ParaSight gives them
    // 0.8 · 16384/16512 = 0.79380 and 0.746 · 17920/18048 = 0.74071: 92.41% and 92.47% of what was measured.
    const auto best_shape_share = [](const char* preset, const MatmulShape& shape, double measured_share) {
        const std::optional<parasight::DeviceSpec> device = parasight::device_preset_spec(preset);
        if (!device) return 0.0;
        return parasight::make_compute_model(*device, parasight::Dtype::bf16).matmul_efficiency_of(shape) /
               measured_share;
    };
    const double a100 = best_shape_share("a100-80gb", {6912, 2048, 16384, 1.0}, 267.9 / 312.0);
    const double h100 = best_shape_share("h100-sxm", {6144, 2816, 17920, 1.0}, 792.1 / 989.4);
    PS_COMPARE_RELATIVE(a100, 0.8 * 16384.0 / 16512.0 / (267.9 / 312.0), 1e-12);
    PS_COMPARE_RELATIVE(h100, a100, 1e-3);
    // The H200 is the same die at the same power: the same figures.
    const std::optional<parasight::DeviceSpec> h100_spec = parasight::device_preset_spec("h100-sxm");
    const std::optional<parasight::DeviceSpec> h200_spec = parasight::device_preset_spec("h200");
    QVERIFY(h100_spec && h200_spec);
    QCOMPARE_EQ(h200_spec->matmul_efficiency, h100_spec->matmul_efficiency);
    // fp8 GEMMs at 0.917 of the bf16 GEMMs' share, as measured on an H100 (0.607 against 0.661 of their peaks):
    // 0.746 · 0.917 = 0.684; the measured device's 0.68 · 0.917 = 0.624.
    PS_COMPARE_RELATIVE(h100_spec->fp8_matmul_efficiency, 0.746 * 0.607 / 0.661, 2e-3);
    QCOMPARE_EQ(h200_spec->fp8_matmul_efficiency, h100_spec->fp8_matmul_efficiency);
    const std::optional<parasight::DeviceSpec> measured = parasight::device_preset_spec("h100-sxm-measured");
    QVERIFY(measured);
    PS_COMPARE_RELATIVE(measured->fp8_matmul_efficiency, measured->matmul_efficiency * 0.607 / 0.661, 2e-3);
    // FlashAttention-2 (Dao 2023, §4.1): up to 335 TFLOP/s on H100, forward and backward on long sequences at head
    // width 128 — what attention_efficiency stands for.
    PS_COMPARE_RELATIVE(h100_spec->attention_efficiency, 335.0 / 989.4, 2e-3);
    QCOMPARE_EQ(h200_spec->attention_efficiency, h100_spec->attention_efficiency);
}

QTEST_GUILESS_MAIN(TestMatmulTiles)
#include "test_matmul_tiles.moc"
