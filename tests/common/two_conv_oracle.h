#pragma once
// The oracle suites' hand-worked CNN: conv 1 takes 3 × 8 × 8 to 4 × 8 × 8 with 3 × 3 kernels (|x| 192, |y| 256,
// |w| 3·3·3·4 = 108, |b| 4); conv 2 takes 4 × 8 × 8 to 2 × 8 × 8 (|x| 256, |y| 128, |w| 3·3·4·2 = 72, |b| 2). Each
// layer: FW 1 ms, BW 2 ms per sample, WU 0.5 ms per iteration. D = 64 samples, B = 16 (4 iterations), S = 4
// segments, α = 10 µs, β = 1 ns/B, δ = 4 B, γ = 1, no memory capacity. So Σ(FW + BW) = 6 ms, ΣWU = 1 ms, Σ|w| = 180.

#include "oracle/paradl_oracle.h"

namespace parasight::testing {

inline OracleProblem two_conv_oracle_problem() {
    OracleLayer conv1;
    conv1.name = "conv 1";
    conv1.input_elements = 192.0;
    conv1.output_elements = 256.0;
    conv1.weights = 108.0;
    conv1.biases = 4.0;
    conv1.filters = 4;
    conv1.channels = 3;
    conv1.width = conv1.height = conv1.output_width = conv1.output_height = 8;
    conv1.kernel = 3;
    conv1.forward_s = 1e-3;
    conv1.backward_s = 2e-3;
    conv1.update_s = 0.5e-3;
    OracleLayer conv2 = conv1;
    conv2.name = "conv 2";
    conv2.input_elements = 256.0;
    conv2.output_elements = 128.0;
    conv2.weights = 72.0;
    conv2.biases = 2.0;
    conv2.filters = 2;
    conv2.channels = 4;
    OracleProblem problem;
    problem.layers = {conv1, conv2};
    problem.samples = 64.0;
    problem.batch = 16.0;
    problem.micro_batches = 4.0;
    problem.alpha_s = 10e-6;
    problem.beta_s_per_byte = 1e-9;
    problem.element_bytes = 4.0;
    problem.memory_overhead = 1.0;
    return problem;
}

}  // namespace parasight::testing
