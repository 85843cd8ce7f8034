#include "topology/dimension.h"

#include "common/enum_names.h"

namespace parasight {

const std::array<EnumName<DimensionKind>, 3> dimension_kind_names{{
    {DimensionKind::ring, "ring"},
    {DimensionKind::fully_connected, "fully_connected"},
    {DimensionKind::switch_fabric, "switch"},
}};

const std::array<EnumName<CollectiveAlgorithm>, 6> collective_algorithm_names{{
    {CollectiveAlgorithm::ring, "ring"},
    {CollectiveAlgorithm::direct, "direct"},
    {CollectiveAlgorithm::halving_doubling, "halving_doubling"},
    {CollectiveAlgorithm::double_binary_tree, "double_binary_tree"},
    {CollectiveAlgorithm::in_switch, "in_switch"},
    {CollectiveAlgorithm::nccl, "nccl"},
}};

const std::array<EnumName<CollectiveProtocol>, 3> collective_protocol_names{{
    {CollectiveProtocol::simple, "Simple"},
    {CollectiveProtocol::ll128, "LL128"},
    {CollectiveProtocol::ll, "LL"},
}};

const std::array<EnumName<MultiDimensionCollectives>, 2> multi_dimension_collectives_names{{
    {MultiDimensionCollectives::hierarchical, "hierarchical"},
    {MultiDimensionCollectives::flat_ring, "flat_ring"},
}};

double achievable_bandwidth_Bps(const Dimension& dimension) noexcept {
    return dimension.bandwidth_Bps * dimension.efficiency;
}

double step_latency_s(const Dimension& dimension, int hops) noexcept {
    return static_cast<double>(hops) * dimension.latency_s + dimension.step_latency_s;
}

CollectiveAlgorithm default_algorithm(DimensionKind kind) noexcept {
    switch (kind) {
    case DimensionKind::ring: return CollectiveAlgorithm::ring;
    case DimensionKind::fully_connected: return CollectiveAlgorithm::direct;
    case DimensionKind::switch_fabric: return CollectiveAlgorithm::nccl;
    }
    return CollectiveAlgorithm::ring;
}

CollectiveAlgorithm effective_algorithm(const Dimension& dimension) noexcept {
    return dimension.algorithm.value_or(default_algorithm(dimension.kind));
}

bool algorithm_fits(CollectiveAlgorithm algorithm, DimensionKind kind) noexcept {
    switch (kind) {
    case DimensionKind::ring: return algorithm == CollectiveAlgorithm::ring;
    case DimensionKind::fully_connected: return algorithm != CollectiveAlgorithm::in_switch;
    case DimensionKind::switch_fabric: return true;
    }
    return false;
}

std::string_view to_string(DimensionKind kind) noexcept { return name_of(kind, dimension_kind_names); }
std::string_view to_string(CollectiveAlgorithm algorithm) noexcept {
    return name_of(algorithm, collective_algorithm_names);
}
std::string_view to_string(CollectiveProtocol protocol) noexcept { return name_of(protocol, collective_protocol_names); }
std::string_view to_string(MultiDimensionCollectives collectives) noexcept {
    return name_of(collectives, multi_dimension_collectives_names);
}

}  // namespace parasight
