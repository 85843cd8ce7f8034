#include "device/matmul_tiles.h"

#include <algorithm>
#include <cmath>

namespace parasight {

const std::array<MatmulTile, 8> cublas_tiles{{
    {256, 128}, {128, 256}, {128, 128}, {256, 64}, {64, 256}, {128, 64}, {64, 128}, {64, 64}}};

namespace {

double reuse(MatmulTile tile) noexcept {
    const double m = tile.m;
    const double n = tile.n;
    return m * n / (m + n);
}

}  // namespace

double tile_speed(MatmulTile tile) noexcept { return reuse(tile) / reuse(cublas_tiles[0]); }

double tile_fill(double batch, double m, double n, MatmulTile tile, int streaming_multiprocessors) noexcept {
    const double sms = streaming_multiprocessors;
    const double tiles = batch * std::ceil(m / tile.m) * std::ceil(n / tile.n);
    const double waves = std::ceil(tiles / sms);
    return batch * m * n / (waves * sms * tile.m * tile.n);
}

double depth_efficiency(double k, double half_depth) noexcept { return k / (k + half_depth); }

TileChoice best_tile(const MatmulShape& shape, int streaming_multiprocessors, double half_depth) noexcept {
    TileChoice best;
    for (const MatmulTile tile : cublas_tiles) {
        // Split-K only for an output of fewer tiles than SMs: a fuller one would add a reduction to no gain.
        const double tiles = shape.batch * std::ceil(shape.m / tile.m) * std::ceil(shape.n / tile.n);
        const int largest_split = tiles < streaming_multiprocessors ? max_split_k : 1;
        for (int split = 1; split <= largest_split; split *= 2) {
            const double efficiency = tile_fill(shape.batch * split, shape.m, shape.n, tile, streaming_multiprocessors) *
                                      tile_speed(tile) * depth_efficiency(shape.k / split, half_depth);
            if (efficiency > best.efficiency) best = {tile, split, efficiency};
        }
    }
    return best;
}

}  // namespace parasight
