#pragma once
// How a GEMM's output tiles fill a GPU (NVIDIA, "Matrix Multiplication Background User's Guide", 2023, §2.3 and §3).
// cuBLAS cuts the M × N output into thread-block tiles and runs one tile per streaming multiprocessor (SM) at a time,
// in waves. Two effects follow. Tile quantisation: a dimension that is not a multiple of the tile computes the
// whole last tile anyway. Wave quantisation: when the tile count is not a multiple of the SM count, the last wave
// leaves SMs idle (the guide's example: A100's 108 SMs, 256 × 128 tiles). Larger tiles reuse each operand they load
// over more outputs and are faster per tile; smaller tiles fit small problems better — cuBLAS picks the tile that
// finishes first. An output of fewer tiles than SMs is also split along k (split-K, as cuBLAS and CUTLASS do for weight
// gradients): s slices of k/s run on s times the SMs, each paying its tile's fixed cost again.

#include <array>

namespace parasight {

// One GEMM: `batch` independent products, each an m × n output reduced over k (2·m·n·k FLOPs each).
struct MatmulShape {
    double m = 0.0;
    double n = 0.0;
    double k = 0.0;
    double batch = 0.0;  // 0: no GEMM
    [[nodiscard]] double flops() const noexcept { return 2.0 * m * n * k * batch; }

    friend bool operator==(const MatmulShape&, const MatmulShape&) = default;
};

struct MatmulTile {
    int m = 0;
    int n = 0;
};

// The thread-block tiles the guide lists for cuBLAS on Tensor Cores (§2.3), the most efficient first.
extern const std::array<MatmulTile, 8> cublas_tiles;

// The share of full speed a tile runs at: its operand reuse, m·n/(m + n) outputs per element loaded, relative to
// 256 × 128's (85.3) — the guide ranks the larger tiles as the more efficient for their data reuse. 128 × 128: 0.75;
// 256 × 64: 0.6; 128 × 64: 0.5; 64 × 64: 0.375.
[[nodiscard]] double tile_speed(MatmulTile tile) noexcept;

// The share of the SMs' tile-time that does useful work when `batch` problems of m × n are cut into `tile`s on
// `streaming_multiprocessors` SMs: batch·m·n / (waves · SMs · tile area), waves = ⌈batch·⌈m/tm⌉·⌈n/tn⌉ / SMs⌉.
[[nodiscard]] double tile_fill(double batch, double m, double n, MatmulTile tile, int streaming_multiprocessors) noexcept;

// The share of a tile's time spent in its k loop when each tile pays a fixed prologue and epilogue worth `half_depth`
// of k: k / (k + half_depth) (1 for half_depth 0).
[[nodiscard]] double depth_efficiency(double k, double half_depth) noexcept;

struct TileChoice {
    MatmulTile tile;
    int split_k = 1;          // slices of k
    double efficiency = 0.0;  // tile_fill of the slices · tile_speed · depth_efficiency(k / split_k)
};

// The split-K factors considered: powers of two up to 64.
inline constexpr int max_split_k = 64;

// The tile and split-K cuBLAS would run `shape` with: of cublas_tiles and split factors 1, 2, 4 … max_split_k (a tile
// that makes at least as many tiles as SMs is not split), the best fill × speed × depth efficiency (the largest tile,
// then the fewest slices, on a tie).
[[nodiscard]] TileChoice best_tile(const MatmulShape& shape, int streaming_multiprocessors, double half_depth) noexcept;

}  // namespace parasight
