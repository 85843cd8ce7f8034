#pragma once
// The pieces of the scenario loader, one per section; internal to core/scenario.

#include "scenario/scenario.h"
#include "presets/preset_library.h"
#include "scenario_file/yaml_reader.h"

#include <map>
#include <string>

namespace parasight {

// Where each value was written, by path ("model.heads", "parallelism", "strategy_tree[2]"), for checks that span
// several sections and must point at the right place.
class LocationIndex {
public:
    void record(std::string path, SourceLocation location) { locations_[std::move(path)] = std::move(location); }
    // The location of `path`, else of its closest recorded parent ("model.heads" → "model"), else the file start.
    [[nodiscard]] SourceLocation find(std::string_view path) const;
    void set_file(std::string file) { file_ = std::move(file); }

private:
    std::map<std::string, SourceLocation, std::less<>> locations_;
    std::string file_;
};

// Each reader accepts a preset id (a plain string) or a mapping with an optional `preset` plus fields that override it.
void read_model(const YAML::Node& node, YamlSource& source, LocationIndex& locations, ModelSpec& model);
void read_device(const YAML::Node& node, YamlSource& source, LocationIndex& locations, const std::string& path,
                 DeviceSpec& device);
void read_cluster(const YAML::Node& node, YamlSource& source, LocationIndex& locations, ClusterSpec& cluster);
// cluster.memory_system, its tiers' fields overriding those of a cluster preset's tiers.
void read_memory_system(const YAML::Node& node, YamlSource& source, LocationIndex& locations,
                        MemorySystemSpec& memory_system);
void read_training(const YAML::Node& node, YamlSource& source, LocationIndex& locations, TrainingSpec& training);
void read_parallelism(const YAML::Node& node, YamlSource& source, LocationIndex& locations,
                      ParallelismSpec& parallelism);
void read_strategy_tree(const YAML::Node& node, YamlSource& source, LocationIndex& locations,
                        std::vector<StrategyOverride>& overrides);
void read_simulation(const YAML::Node& node, YamlSource& source, LocationIndex& locations, SimulationSpec& simulation);
void read_what_if(const YAML::Node& node, YamlSource& source, LocationIndex& locations, WhatIfSpec& what_if);

// Parses a bundled preset's YAML; its own errors are reported against its file (they are bugs in the preset).
[[nodiscard]] std::optional<YAML::Node> load_preset_yaml(PresetKind kind, const std::string& id,
                                                         const SourceLocation& referenced_at, YamlSource& source);

}  // namespace parasight
