#include "sweep/strategy_space.h"

#include "common/message_text.h"
#include "model/degree_candidates.h"
#include "model/model_structure.h"

#include <array>

namespace parasight {
namespace {

// The degrees, then the rest of `all`.
constexpr std::array<std::string_view, 10> strategy_paths{
    "parallelism.tp",       "parallelism.pp",   "parallelism.dp",        "parallelism.ep",
    "parallelism.schedule", "parallelism.virtual_stages", "training.micro_batch", "parallelism.zero",
    "parallelism.recompute", "parallelism.sequence_parallel"};

}  // namespace

Expected<StrategySpace> parse_strategy_space(std::string_view text) {
    if (text == "all") return StrategySpace::all;
    if (text == "degrees") return StrategySpace::degrees;
    return Error{"strategies is all (every layout, schedule, micro-batch, ZeRO stage and recompute) or degrees "
                 "(every tp × pp × dp), not " + in_quotes(text)};
}

std::vector<SweepAxis> strategy_axes(const Scenario& base, StrategySpace space) {
    const ModelSpec& model = base.model;
    const bool experts = model.kind == ModelKind::transformer && model.experts > 1;
    const std::int64_t layers = pipeline_layer_count(model);

    std::vector<std::vector<std::string>> rows;  // one per strategy, a value per axis
    const auto text = [](std::int64_t value) { return std::to_string(value); };
    for (const auto& [tp, pp, ep, dp] : degree_candidates(model, base.device_count(), base.parallelism.cp)) {
        std::vector<std::string> degrees{text(tp), text(pp), text(dp)};
        if (experts) degrees.push_back(text(ep));
        if (space == StrategySpace::degrees) {
            rows.push_back(degrees);
            continue;
        }
        std::vector<std::pair<std::string, std::int64_t>> schedules{{"1f1b", 1}};
        if (pp > 1) {
            schedules.emplace_back("gpipe", 1);
            for (const std::int64_t virtual_stages : {2, 4}) {
                if (layers % (pp * virtual_stages) == 0) schedules.emplace_back("interleaved", virtual_stages);
            }
        }
        const std::int64_t replica_batch = base.training.global_batch / (dp * ep);
        for (const auto& [schedule, virtual_stages] : schedules) {
            for (const std::int64_t micro_batch : {1, 2, 4, 8}) {
                if (replica_batch <= 0 || base.training.global_batch % (dp * ep) != 0 ||
                    replica_batch % micro_batch != 0) {
                    continue;
                }
                for (const int zero : {0, 1, 2, 3}) {
                    if (dp == 1 && zero > 0) continue;
                    for (const char* recompute : {"none", "selective", "full"}) {
                        for (const bool sequence_parallel : {false, true}) {
                            if (sequence_parallel && tp == 1) continue;
                            std::vector<std::string> row = degrees;
                            row.insert(row.end(), {schedule, text(virtual_stages), text(micro_batch), text(zero),
                                                   recompute, sequence_parallel ? "true" : "false"});
                            rows.push_back(std::move(row));
                        }
                    }
                }
            }
        }
    }
    if (rows.empty()) return {};
    std::vector<std::string_view> paths{strategy_paths[0], strategy_paths[1], strategy_paths[2]};
    if (experts) paths.push_back(strategy_paths[3]);
    if (space == StrategySpace::all) paths.insert(paths.end(), strategy_paths.begin() + 4, strategy_paths.end());
    std::vector<SweepAxis> axes;
    for (std::size_t a = 0; a < paths.size(); ++a) {
        SweepAxis axis{std::string(paths[a]), {}, a > 0};
        axis.values.reserve(rows.size());
        for (const auto& row : rows) axis.values.push_back(row[a]);
        axes.push_back(std::move(axis));
    }
    return axes;
}

}  // namespace parasight
