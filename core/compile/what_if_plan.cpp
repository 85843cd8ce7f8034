#include "compile/what_if_plan.h"

#include <algorithm>
#include <limits>

namespace parasight {

WhatIfPlan::WhatIfPlan(const WhatIfSpec& spec, const ParallelLayout& layout)
    : spec_(spec), layout_(layout), delay_matches_(spec.collective_delays.size(), 0) {
    for (const SlowDevices& slow : spec.slow_devices) {
        for (const std::int64_t npu : slow.npus) {
            auto [entry, added] = compute_time_factors_.emplace(npu, 1.0);
            entry->second *= slow.compute_time_factor;
        }
    }
    for (const DegradedLinks& links : spec.degraded_links) {
        link_npus_.insert(link_npus_.end(), links.npus.begin(), links.npus.end());
        // A scenario built in memory may list them in any order.
        std::vector<std::int64_t> npus = links.npus;
        std::sort(npus.begin(), npus.end());
        rule_npus_.push_back(std::move(npus));
    }
    std::sort(link_npus_.begin(), link_npus_.end());
    link_npus_.erase(std::unique(link_npus_.begin(), link_npus_.end()), link_npus_.end());
}

double WhatIfPlan::matched_delay_s(ParallelAxis group, CommOperation operation, int layer) {
    double delay = 0.0;
    for (std::size_t r = 0; r < spec_.collective_delays.size(); ++r) {
        const CollectiveDelay& rule = spec_.collective_delays[r];
        if (rule.group && *rule.group != group) continue;
        if (rule.operation && *rule.operation != operation) continue;
        if (rule.layers && !rule.layers->contains(layer)) continue;
        delay += rule.delay_s;
        ++delay_matches_[r];
    }
    return delay;
}

double WhatIfPlan::compute_time_factor(std::int64_t npu) const {
    const auto it = compute_time_factors_.find(npu);
    return it == compute_time_factors_.end() ? 1.0 : it->second;
}

double WhatIfPlan::bandwidth_factor(std::int64_t npu, std::size_t dimension) const {
    double factor = 1.0;
    for (std::size_t r = 0; r < spec_.degraded_links.size(); ++r) {
        const DegradedLinks& links = spec_.degraded_links[r];
        const std::vector<std::int64_t>& npus = rule_npus_[r];
        if (links.dimension && static_cast<std::size_t>(*links.dimension) != dimension) continue;
        if (!npus.empty() && !std::binary_search(npus.begin(), npus.end(), npu)) continue;
        factor *= links.bandwidth_factor;
    }
    return factor;
}

double WhatIfPlan::unnamed_bandwidth_factor(std::size_t dimension) const {
    double factor = 1.0;
    for (const DegradedLinks& links : spec_.degraded_links) {
        if (links.dimension && static_cast<std::size_t>(*links.dimension) != dimension) continue;
        if (links.npus.empty()) factor *= links.bandwidth_factor;
    }
    return factor;
}

std::vector<double> WhatIfPlan::group_bandwidth_factors(std::span<const ParallelAxis> axes, std::int64_t npu) {
    const std::size_t dimensions = layout_.topology().dimension_count();
    if (spec_.degraded_links.empty()) return std::vector<double>(dimensions, 1.0);
    const std::int64_t first = layout_.group_first_member(axes, npu);
    const auto key = std::tuple(axes.size(), axes.front(), first);
    if (const auto it = group_factors_.find(key); it != group_factors_.end()) return it->second;
    std::int64_t members = 1;
    for (const ParallelAxis axis : axes) members *= layout_.degree(axis);
    std::vector<std::int64_t> named;
    for (const std::int64_t other : link_npus_) {
        if (layout_.group_first_member(axes, other) == first) named.push_back(other);
    }
    std::vector<double> factors(dimensions, std::numeric_limits<double>::infinity());
    for (std::size_t d = 0; d < dimensions; ++d) {
        if (static_cast<std::int64_t>(named.size()) < members) factors[d] = unnamed_bandwidth_factor(d);
        for (const std::int64_t member : named) factors[d] = std::min(factors[d], bandwidth_factor(member, d));
    }
    group_factors_.emplace(key, factors);
    return factors;
}

std::vector<double> WhatIfPlan::transfer_bandwidth_factors(std::int64_t from, std::int64_t to) const {
    std::vector<double> factors(layout_.topology().dimension_count(), 1.0);
    if (spec_.degraded_links.empty()) return factors;
    for (std::size_t d = 0; d < factors.size(); ++d) {
        factors[d] = std::min(bandwidth_factor(from, d), bandwidth_factor(to, d));
    }
    return factors;
}

std::int64_t WhatIfPlan::stage_representative(int stage) const {
    const std::int64_t stage_first = stage * layout_.id_stride(ParallelAxis::pp);
    std::vector<std::int64_t> candidates = link_npus_;
    for (const auto& [npu, factor] : compute_time_factors_) candidates.push_back(npu);
    std::sort(candidates.begin(), candidates.end());
    std::int64_t best = stage_first;
    double best_compute = 1.0;
    double best_links = 1.0;
    for (const std::int64_t npu : candidates) {
        if (layout_.rank_in_group(ParallelAxis::pp, npu) != stage) continue;
        const double compute = compute_time_factor(npu);
        double links = std::numeric_limits<double>::infinity();
        for (std::size_t d = 0; d < layout_.topology().dimension_count(); ++d) {
            links = std::min(links, bandwidth_factor(npu, d));
        }
        if (compute > best_compute || (compute == best_compute && links < best_links)) {
            best = npu;
            best_compute = compute;
            best_links = links;
        }
    }
    return best;
}

std::vector<Warning> WhatIfPlan::unmatched_rule_warnings() const {
    std::vector<Warning> warnings;
    for (std::size_t r = 0; r < delay_matches_.size(); ++r) {
        if (delay_matches_[r] > 0) continue;
        Warning warning;
        warning.code = WarningCode::what_if_matches_nothing;
        warning.subject = "what_if.collective_delays[" + std::to_string(r) + "]";
        warnings.push_back(std::move(warning));
    }
    return warnings;
}

}  // namespace parasight
