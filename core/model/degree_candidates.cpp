#include "model/degree_candidates.h"

#include "model/model_structure.h"

namespace parasight {
namespace {

std::vector<std::int64_t> divisors(std::int64_t n) {
    std::vector<std::int64_t> found;
    for (std::int64_t d = 1; d <= n; ++d) {
        if (n % d == 0) found.push_back(d);
    }
    return found;
}

}  // namespace

std::vector<DegreeCandidate> degree_candidates(const ModelSpec& model, std::int64_t devices, std::int64_t cp) {
    if (devices <= 0 || cp <= 0 || devices % cp != 0) return {};
    const bool transformer = model.kind == ModelKind::transformer;
    const bool experts = transformer && model.experts > 1;
    const std::int64_t layers = pipeline_layer_count(model);
    const std::int64_t kv_heads = model.kv_heads > 0 ? model.kv_heads : model.heads;
    std::vector<DegreeCandidate> candidates;
    for (const std::int64_t tp : divisors(devices / cp)) {
        if (transformer ? (model.heads % tp != 0 || kv_heads % tp != 0) : tp != 1) continue;
        for (const std::int64_t pp : divisors(devices / cp / tp)) {
            if (pp > layers) continue;
            for (const std::int64_t ep : experts ? divisors(devices / cp / tp / pp) : std::vector<std::int64_t>{1}) {
                if (experts && model.experts % ep != 0) continue;
                candidates.push_back({tp, pp, ep, devices / cp / tp / pp / ep});
            }
        }
    }
    return candidates;
}

}  // namespace parasight
