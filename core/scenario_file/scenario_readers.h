#pragma once
// The pieces of the scenario loader, one per section; internal to core/scenario.

#include "scenario/scenario.h"
#include "presets/preset_library.h"
#include "scenario_file/yaml_reader.h"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
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

// A bundled preset's fields as `read` reads them from its file into a default Spec (false: the file is not a
// mapping). They are the same wherever the preset is named, so each is parsed and read once a process — a sweep
// names its base's presets at every point — and what reading it reported (against the preset's own file) is reported
// again each time. Nothing when `id` names no bundled preset of that kind (said at `referenced_at`, with a
// did-you-mean), its YAML does not parse or it is not a mapping.
template <typename Spec>
[[nodiscard]] std::optional<Spec> read_preset_fields(PresetKind kind, const std::string& id,
                                                     const SourceLocation& referenced_at, YamlSource& source,
                                                     bool (*read)(const YAML::Node&, YamlSource&, Spec&)) {
    struct Read {
        std::optional<Spec> spec;
        Diagnostics diagnostics;
    };
    static std::mutex mutex;
    static std::map<std::string, std::shared_ptr<const Read>, std::less<>> reads;  // by kind and id
    const std::string key = std::to_string(static_cast<int>(kind)) + ":" + id;
    std::shared_ptr<const Read> found;
    {
        const std::lock_guard lock(mutex);
        if (const auto it = reads.find(key); it != reads.end()) found = it->second;
    }
    if (!found) {
        if (find_preset(kind, id) == nullptr) {
            [[maybe_unused]] const auto unknown = load_preset_yaml(kind, id, referenced_at, source);  // says so
            return std::nullopt;
        }
        auto fresh = std::make_shared<Read>();
        YamlSource preset_source(std::string(find_preset(kind, id)->file), fresh->diagnostics);
        if (const auto yaml = load_preset_yaml(kind, id, referenced_at, preset_source)) {
            Spec spec;
            if (read(*yaml, preset_source, spec)) fresh->spec = std::move(spec);
        }
        const std::lock_guard lock(mutex);
        found = reads.emplace(key, std::move(fresh)).first->second;
    }
    for (const Diagnostic& diagnostic : found->diagnostics) source.diagnostics().push_back(diagnostic);
    return found->spec;
}

}  // namespace parasight
