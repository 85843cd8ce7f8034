#include "topology/topology.h"

#include <stdexcept>

namespace parasight {

Topology::Topology(std::vector<Dimension> dimensions) : dimensions_(std::move(dimensions)) {
    place_values_.reserve(dimensions_.size());
    for (const Dimension& dimension : dimensions_) {
        if (dimension.size < 1) throw std::invalid_argument("topology dimension size must be at least 1");
        place_values_.push_back(device_count_);
        device_count_ *= dimension.size;
    }
}

std::vector<int> Topology::coordinates(std::int64_t npu) const {
    std::vector<int> result(dimensions_.size());
    for (std::size_t d = 0; d < dimensions_.size(); ++d) result[d] = coordinate(npu, d);
    return result;
}

int Topology::coordinate(std::int64_t npu, std::size_t dimension) const {
    if (npu < 0 || npu >= device_count_) throw std::out_of_range("NPU id outside the topology");
    if (dimension >= dimensions_.size()) throw std::out_of_range("no such topology dimension");
    return static_cast<int>((npu / place_values_[dimension]) % dimensions_[dimension].size);
}

std::int64_t Topology::npu_id(std::span<const int> coordinates) const {
    if (coordinates.size() != dimensions_.size()) throw std::invalid_argument("one coordinate per dimension expected");
    std::int64_t id = 0;
    for (std::size_t d = 0; d < dimensions_.size(); ++d) {
        if (coordinates[d] < 0 || coordinates[d] >= dimensions_[d].size) {
            throw std::out_of_range("coordinate outside its dimension");
        }
        id += coordinates[d] * place_values_[d];
    }
    return id;
}

}  // namespace parasight
