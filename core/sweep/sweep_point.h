#pragma once
// One point of a sweep: the base scenario with each axis's path set to one of its values, then read back by the
// scenario loader — so a value is checked exactly as a file's would be (units, limits, cross-checks), and a point
// that is not a valid scenario carries the loader's reasons instead of being dropped. The values are set in the
// base scenario's YAML (scenario_writer's) at their paths: `section.key`, `key[index]` into a list, nested as deep as
// the file goes ("cluster.topology[1].bandwidth"); a key the file does not have is added, for the loader to accept
// or to refuse with its did-you-mean.

#include "scenario_file/scenario_loader.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace parasight {

struct AxisValue {
    std::string path;   // "parallelism.tp"
    std::string value;  // "4", "150 GB/s"
};

// `base_yaml` is a scenario as write_scenario_yaml writes it (valid YAML). The point's YAML: the base with each value
// set at its path; the diagnostic (under the path) says why a path names no place in the scenario (an index past a
// list's end, a key inside a value).
[[nodiscard]] Expected<std::string, Diagnostic> point_yaml(const std::string& base_yaml,
                                                         std::span<const AxisValue> values);

// Why `path` names no value of the scenario in `base_yaml` — a key it does not have (with a did-you-mean), an index
// past a list's end, a key inside a value — or nothing when it names one. A sweep's axes are checked so before any
// point runs: write_scenario_yaml writes every field, so an axis on a path the base lacks is a mistake.
[[nodiscard]] std::optional<std::string> missing_path(const std::string& base_yaml, const std::string& path);

// missing_path() for several paths of one scenario, which is read once.
class ScenarioPaths {
public:
    explicit ScenarioPaths(const std::string& base_yaml);
    ScenarioPaths(const ScenarioPaths&) = delete;
    ScenarioPaths& operator=(const ScenarioPaths&) = delete;
    ~ScenarioPaths();

    [[nodiscard]] std::optional<std::string> missing(const std::string& path) const;

private:
    struct Tree;
    std::unique_ptr<Tree> tree_;
};

// Every value an axis can set in `base_yaml`: each scalar with its path and its value as written, in the file's order
// (`model.layers` 96, `cluster.topology[0].bandwidth` "300 GB/s", `parallelism.mapping[1]` dp), the schema version
// left out — what an axis editor offers to pick from. Empty when the text is not YAML.
[[nodiscard]] std::vector<AxisValue> scalar_values(const std::string& base_yaml);

// The scenario at a point, or why there is
// none: a path that names no place in the scenario (an index past a
// list's end, a key inside a value) says so under the path; everything else is the loader's diagnostics, about the
// point's YAML (named `point_name`).
[[nodiscard]] LoadResult scenario_at(const std::string& base_yaml, std::span<const AxisValue> values,
                                     const std::string& point_name, const std::filesystem::path& base_directory = {});

}  // namespace parasight

namespace parasight {

// The points of one sweep, read from its base scenario parsed once: a point is the base's YAML tree with each axis's
// value set, read by load_scenario_yaml — what scenario_at gives from the point's text (test_sweep_point compares
// the two on every bundled scenario), without writing the base and parsing it again at every point. A value is set
// as it reads back from the point's YAML: written by the same emitter in the same context, then parsed; one whose
// written form a scenario file could not hold sends its point through the text. The point's YAML (kept with its
// result) is the base's written text with the point's values written in place of the base's, where they only change
// scalars the base has — the same text as writing the point's tree, at a fraction of the cost. Usable from several
// threads at once.
class PointScenarios {
public:
    explicit PointScenarios(std::string base_yaml);  // as write_scenario_yaml writes it
    PointScenarios(const PointScenarios&) = delete;
    PointScenarios& operator=(const PointScenarios&) = delete;
    ~PointScenarios();

    struct Point {
        std::string yaml;  // the point's YAML, as point_yaml writes it; empty when a path names no place
        LoadResult loaded;  // as scenario_at loads it, its diagnostics not located in a file
    };
    [[nodiscard]] Point at(std::span<const AxisValue> values, const std::string& point_name,
                           const std::filesystem::path& base_directory = {}) const;

private:
    struct Base;
    std::unique_ptr<Base> base_;
};

}  // namespace parasight
