#pragma once
// Calculon's system, model and execution files as a ParaSight scenario (docs/interop.md): the model a transformer of
// the same sizes, the execution the same degrees, batch, datatype, recomputation, schedule, optimizer sharding and
// tensor-parallel communication, the system a device with the matrix peak, efficiencies and memory, and a topology
// dimension per network the execution uses, as large as the degrees it carries, with the algorithm whose traffic is
// the network's all-reduce's. Every value carries a comment saying where it came from; every assumption where
// Calculon's model and ParaSight's differ is listed at the end; what ParaSight cannot express (offloads, inference, a
// tensor-parallel overlap of every GEMM) is refused, located at the key.

#include "common/expected.h"
#include "diagnostics/diagnostic.h"
#include "interop/peer_file.h"

#include <cstdint>

namespace parasight {

// The latency per hop ParaSight gives a switch dimension of `members` for Calculon's once-per-operation latency: spread
// over a whole-dimension all-reduce's steps — the ring's 2(n − 1), in-switch reduction's 2 — of 2 hops each, as the
// scenario writes it (ns, shortest decimal) and reads it back.
[[nodiscard]] double calculon_hop_latency_s(double operation_latency_s, std::int64_t members, bool in_switch);

// PeerImport::not_modelled holds the assumptions, each a sentence.
[[nodiscard]] Expected<PeerImport, Diagnostics> import_calculon(const PeerFile& system, const PeerFile& model,
                                                                const PeerFile& execution);

}  // namespace parasight
