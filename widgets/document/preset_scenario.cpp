#include "document/preset_scenario.h"

#include "scenario_file/preset_specs.h"
#include "scenario_file/scenario_loader.h"
#include "validation/validate.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace parasight::gui {

namespace {

std::optional<Scenario> load_preset_scenario(const Preset& preset, Diagnostics& problems) {
    LoadResult loaded = load_scenario_text(preset.text, std::string(preset.file));
    if (!loaded.ok()) {
        problems = std::move(loaded.diagnostics);
        return std::nullopt;
    }
    return loaded.scenario->value();
}

// `kept` first, then the rest of the powers of two from 16 down, without repeats.
std::vector<int> degrees_from(int kept, int largest) {
    std::vector<int> degrees{kept};
    for (int degree = largest; degree >= 1; degree /= 2) {
        if (degree != kept) degrees.push_back(degree);
    }
    return degrees;
}

// One way of fitting the default's choices to a new part.
struct Fit {
    Dtype dtype;
    int tp;
    int pp;
    bool simplified;     // no recompute, no sequence parallelism
    bool batch_rounded;  // the global batch rounded up to a multiple of dp x micro-batch
};

// The default's choices where the new part allows them, the nearest simpler ones where not: its dtype, else fp16,
// else fp32 (a device without bf16); its tp and pp, else smaller powers of two that divide the heads and layers,
// with dp taking the remaining devices; its recompute and sequence parallelism, else neither (a CNN has no use for
// them); its global batch, else the next multiple of dp x micro-batch (dp 1024 cannot share 1536 sequences).
// Most preferred first.
std::vector<Fit> fits_in_preference(const Scenario& scenario) {
    std::vector<Fit> fits;
    for (const bool batch_rounded : {false, true}) {
        for (const Dtype dtype : {scenario.training.dtype, Dtype::fp16, Dtype::fp32}) {
            for (const int tp : degrees_from(scenario.parallelism.tp, 8)) {
                for (const int pp : degrees_from(scenario.parallelism.pp, 16)) {
                    fits.push_back({dtype, tp, pp, false, batch_rounded});
                    fits.push_back({dtype, tp, pp, true, batch_rounded});
                }
            }
        }
    }
    return fits;
}

Scenario fitted(Scenario scenario, const Fit& fit) {
    scenario.training.dtype = fit.dtype;
    ParallelismSpec& parallelism = scenario.parallelism;
    parallelism.tp = fit.tp;
    parallelism.pp = fit.pp;
    parallelism.cp = parallelism.ep = 1;
    parallelism.derived_axis = ParallelAxis::dp;
    if (fit.simplified) {
        parallelism.recompute = Recompute::none;
        parallelism.sequence_parallel = false;
    }
    if (fit.batch_rounded) {
        const std::int64_t replicas = std::max<std::int64_t>(scenario.device_count() / (fit.tp * fit.pp), 1);
        const std::int64_t step = replicas * scenario.training.micro_batch;
        std::int64_t& batch = scenario.training.global_batch;
        batch = (batch + step - 1) / step * step;
    }
    return scenario;
}

// The scenario as it is if it validates, else its first fit that does; none: as it is, its problems to be shown.
Scenario nearest_valid(const Scenario& scenario) {
    if (validate(scenario).scenario) return scenario;
    for (const Fit& fit : fits_in_preference(scenario)) {
        Scenario candidate = fitted(scenario, fit);
        if (validate(candidate).scenario) return candidate;
    }
    return scenario;
}

}  // namespace

std::optional<Scenario> scenario_from_preset(const Preset& preset, Diagnostics& problems) {
    if (preset.kind == PresetKind::scenario) return load_preset_scenario(preset, problems);
    if (preset.kind == PresetKind::lesson) {
        problems.push_back({SourceLocation{std::string(preset.file), 0, 0}, "a lesson is not a scenario", {}});
        return std::nullopt;
    }
    const Preset* base = find_preset(PresetKind::scenario, "default");
    if (base == nullptr) return std::nullopt;
    std::optional<Scenario> scenario = load_preset_scenario(*base, problems);
    if (!scenario) return std::nullopt;
    switch (preset.kind) {
        case PresetKind::model:
            scenario->model = model_preset_spec(preset.id).value();
            break;
        case PresetKind::cluster:
            scenario->cluster = cluster_preset_spec(preset.id).value();
            scenario->parallelism.derived_axis = ParallelAxis::dp;  // dp follows the new device count
            break;
        case PresetKind::device:
            scenario->cluster.device = device_preset_spec(preset.id).value();
            break;
        case PresetKind::scenario:
        case PresetKind::lesson:
            break;
    }
    scenario->name = "default scenario with " + std::string(preset.id);
    scenario->strategy_tree.clear();  // overrides name the default's stages and layers
    return nearest_valid(*scenario);
}

}  // namespace parasight::gui
