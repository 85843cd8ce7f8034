#include "sweep/sweep_point.h"

#include "common/did_you_mean.h"
#include "common/utf8.h"
#include "common/message_text.h"
#include "common/number_text.h"
#include "scenario/training_stack.h"
#include "scenario_file/scenario_writer.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <unordered_map>

namespace parasight {

namespace {

struct PathStep {
    std::string key;
    std::optional<std::size_t> index;
};

// "cluster.topology[1].bandwidth" → cluster, topology[1], bandwidth; nothing when a step is malformed.
std::optional<std::vector<PathStep>> path_steps(std::string_view path) {
    std::vector<PathStep> steps;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t dot = path.find('.', start);
        std::string_view step = path.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
        PathStep parsed;
        if (const std::size_t open = step.find('['); open != std::string_view::npos) {
            if (step.back() != ']') return std::nullopt;
            const auto index = parse_integer(step.substr(open + 1, step.size() - open - 2));
            if (!index || *index < 0) return std::nullopt;
            parsed.index = static_cast<std::size_t>(*index);
            step = step.substr(0, open);
        }
        if (step.empty()) return std::nullopt;
        parsed.key = std::string(step);
        steps.push_back(std::move(parsed));
        if (dot == std::string_view::npos) break;
        start = dot + 1;
    }
    return steps;
}

// The place `path` names in `root` — added where a mapping lacks the key — and whether it is inside a flow
// collection (`[tp, dp, pp]`), where a value is written differently; or why the path names no place there.
struct Place {
    YAML::Node node;
    bool in_flow = false;
};
Expected<Place, std::string> place_at(YAML::Node root, const std::string& path) {
    const auto steps = path_steps(path);
    if (!steps) {
        return "a path is written section.key, with [index] into a list (cluster.topology[1].bandwidth), not " +
               in_quotes(path);
    }
    YAML::Node node = root;
    bool in_flow = false;
    for (std::size_t i = 0; i < steps->size(); ++i) {
        const PathStep& step = (*steps)[i];
        if (!node.IsMap() && node.IsDefined() && !node.IsNull()) {
            return "'" + (*steps)[i - 1].key + "' holds a value, not keys such as " + in_quotes(step.key);
        }
        in_flow = in_flow || (node.IsMap() && node.Style() == YAML::EmitterStyle::Flow);
        YAML::Node next = node[step.key];
        if (step.index) {
            if (!next.IsSequence()) return in_quotes(step.key) + " is not a list in the scenario";
            if (*step.index >= next.size()) {
                return in_quotes(step.key) + " has " + count_phrase(static_cast<std::int64_t>(next.size()), "entry", "entries") +
                       "; there is no [" + std::to_string(*step.index) + "]";
            }
            in_flow = in_flow || next.Style() == YAML::EmitterStyle::Flow;
            // reset() points the handle elsewhere; '=' would overwrite the list with its element (yaml-cpp).
            next.reset(next[*step.index]);
        }
        if (i + 1 == steps->size()) return Place{next, in_flow};
        node.reset(next);
    }
    return Place{node, in_flow};
}

// Sets `value` at `path` in `root`; the reason when the path names no place there.
std::optional<std::string> set_at(YAML::Node root, const std::string& path, const std::string& value) {
    Expected<Place, std::string> place = place_at(root, path);
    if (!place) return place.error();
    place.value().node = value;  // into the tree
    return std::nullopt;
}

// The scalar at section.key in `root`, or "" when there is none (const access: a mutable yaml-cpp node would add it).
std::string scalar_at(const YAML::Node& root, std::string_view path) {
    const auto dot = path.find('.');
    const YAML::Node section = root[std::string(path.substr(0, dot))];
    if (!section.IsDefined() || !section.IsMap()) return {};
    const YAML::Node value = static_cast<const YAML::Node&>(section)[std::string(path.substr(dot + 1))];
    return value.IsDefined() && value.IsScalar() ? value.Scalar() : std::string();
}

// A point that sets training.stack changes, as choosing a stack in the window does (scenario/training_stack.h), the
// behaviours the base has at its own stack's values (`base_stack`, as written): their keys go, so that the point's
// stack sets them. Behaviours the base set apart, or the point sets itself, stay.
void follow_stack(YAML::Node root, const std::string& base_stack, std::span<const AxisValue> values) {
    const auto sets = [&](std::string_view path) {
        for (const AxisValue& axis : values) {
            if (axis.path == path) return true;
        }
        return false;
    };
    if (!sets("training.stack")) return;
    const auto old_stack = value_of(base_stack, training_stack_names);
    const std::string zero_text = scalar_at(root, "parallelism.zero");
    const auto zero = parse_integer(zero_text.empty() ? "0" : zero_text);
    const auto dtype = value_of(scalar_at(root, "training.dtype"), training_dtype_names);
    const StackBehaviours before = stack_behaviours(old_stack.value_or(TrainingStack::none),
                                                    static_cast<int>(zero.value_or(0)), dtype.value_or(Dtype::bf16));
    for (const std::string_view path : stack_behaviour_paths) {
        if (sets(path) || scalar_at(root, path) != behaviour_text(before, path)) continue;
        const auto dot = path.find('.');
        YAML::Node section = root[std::string(path.substr(0, dot))];
        section.remove(std::string(path.substr(dot + 1)));
    }
}

// Sets each value in `root` and follows the stack; the diagnostic (under the path) when a path names no place in the
// scenario. `set` puts one value at its place.
template <typename Set>
std::optional<Diagnostic> set_values(YAML::Node root, const std::string& base_stack, std::span<const AxisValue> values,
                                     Set set) {
    for (const AxisValue& axis : values) {
        if (const auto problem = set(root, axis)) {
            Diagnostic diagnostic;
            diagnostic.path = axis.path;
            diagnostic.message = axis.path + ": " + *problem;
            return diagnostic;
        }
    }
    follow_stack(root, base_stack, values);
    return std::nullopt;
}

std::string emitted(const YAML::Node& root) {
    YAML::Emitter out;
    out << root;
    return out.c_str();
}

// `root` with each value set and the stack followed, as the point's YAML; or why a path names no place there.
template <typename Set>
Expected<std::string, Diagnostic> patched(YAML::Node root, const std::string& base_stack,
                                          std::span<const AxisValue> values, Set set) {
    if (auto problem = set_values(root, base_stack, values, set)) return std::move(*problem);
    return emitted(root);
}

// `value` as the emitter writes a scalar in a block or a flow collection — where it quotes what would read as
// something else ("null", "a: b") and escapes what a file cannot hold — when that is one line.
std::optional<std::string> written_scalar(const std::string& value, bool in_flow) {
    YAML::Emitter out;
    out << (in_flow ? YAML::Flow : YAML::Block) << YAML::BeginSeq << value << YAML::EndSeq;
    std::string_view text = out.c_str();
    const std::string_view open = in_flow ? "[" : "- ";
    const std::string_view close = in_flow ? "]" : "";
    if (!text.starts_with(open) || !text.ends_with(close)) return std::nullopt;
    text = text.substr(open.size(), text.size() - open.size() - close.size());
    if (text.find('\n') != std::string_view::npos) return std::nullopt;
    return std::string(text);
}

// Where each scalar of `text` (the emitter's text of `node`) is written: by path, as scalar_values() names them.
struct WrittenScalar {
    std::size_t offset = 0;
    std::size_t length = 0;
    bool in_flow = false;
};
void index_scalars(const YAML::Node& node, const std::string& path, bool in_flow, const std::string& text,
                   std::unordered_map<std::string, WrittenScalar>& scalars) {
    if (node.IsScalar()) {
        const auto offset = static_cast<std::size_t>(node.Mark().pos);
        const std::optional<std::string> written = written_scalar(node.Scalar(), in_flow);
        if (written && text.compare(offset, written->size(), *written) == 0) {
            scalars.emplace(path, WrittenScalar{offset, written->size(), in_flow});
        }
    } else if (node.IsMap()) {
        const bool flow = in_flow || node.Style() == YAML::EmitterStyle::Flow;
        for (const auto& entry : node) {
            const std::string key = entry.first.Scalar();
            index_scalars(entry.second, path.empty() ? key : path + "." + key, flow, text, scalars);
        }
    } else if (node.IsSequence()) {
        const bool flow = in_flow || node.Style() == YAML::EmitterStyle::Flow;
        for (std::size_t index = 0; index < node.size(); ++index) {
            index_scalars(node[index], path + "[" + std::to_string(index) + "]", flow, text, scalars);
        }
    }
}

// `value` as it reads back from the point's YAML: written by the same emitter in the same context (a flow
// collection or not) — which quotes what would read as something else ("null", "a: b") and escapes what a file
// cannot hold — and parsed. Nothing where that text is not what a scenario file may hold or does not parse alone:
// the point is then read from its whole text.
std::optional<YAML::Node> as_written(const std::string& value, bool in_flow) {
    YAML::Emitter out;
    out << (in_flow ? YAML::Flow : YAML::Block) << YAML::BeginSeq << value << YAML::EndSeq;
    const std::string_view text = out.c_str();
    if (first_invalid_utf8(text) || first_control_character(text, "\t\n\r")) return std::nullopt;
    try {
        const YAML::Node parsed = YAML::Load(std::string(text));
        if (!parsed.IsSequence() || parsed.size() != 1) return std::nullopt;
        return parsed[0];
    } catch (const YAML::Exception&) {
        return std::nullopt;
    }
}

}  // namespace

namespace {

void collect_scalars(const YAML::Node& node, const std::string& path, std::vector<AxisValue>& values) {
    if (node.IsScalar()) {
        values.push_back({path, node.Scalar()});
    } else if (node.IsMap()) {
        for (const auto& entry : node) {
            const std::string key = entry.first.Scalar();
            collect_scalars(entry.second, path.empty() ? key : path + "." + key, values);
        }
    } else if (node.IsSequence()) {
        for (std::size_t index = 0; index < node.size(); ++index) {
            collect_scalars(node[index], path + "[" + std::to_string(index) + "]", values);
        }
    }
}

}  // namespace

std::vector<AxisValue> scalar_values(const std::string& base_yaml) {
    std::vector<AxisValue> values;
    try {
        const YAML::Node root = YAML::Load(base_yaml);
        if (!root.IsMap()) return values;
        for (const auto& entry : root) {
            const std::string key = entry.first.Scalar();
            if (key != "schema") collect_scalars(entry.second, key, values);
        }
    } catch (const YAML::Exception&) {
        values.clear();
    }
    return values;
}

struct ScenarioPaths::Tree {
    YAML::Node root;
};

ScenarioPaths::ScenarioPaths(const std::string& base_yaml)
    : tree_(std::make_unique<Tree>(Tree{YAML::Load(base_yaml)})) {}

ScenarioPaths::~ScenarioPaths() = default;

std::optional<std::string> missing_path(const std::string& base_yaml, const std::string& path) {
    return ScenarioPaths(base_yaml).missing(path);
}

std::optional<std::string> ScenarioPaths::missing(const std::string& path) const {
    const auto steps = path_steps(path);
    if (!steps) {
        return "a path is written section.key, with [index] into a list (cluster.topology[1].bandwidth), not " +
               in_quotes(path);
    }
    // "cluster.topology[1].algorithm" → "cluster.topology[].algorithm": a key a written scenario leaves out while unset,
    // which setting adds.
    std::string without_indices;
    for (const PathStep& step : *steps) {
        without_indices += (without_indices.empty() ? "" : ".") + step.key + (step.index ? "[]" : "");
    }
    const bool written_only_when_set =
        std::find(paths_written_only_when_set.begin(), paths_written_only_when_set.end(), without_indices) !=
        paths_written_only_when_set.end();
    // Read through const nodes only: a mutable yaml-cpp node adds the keys it is asked for, and the tree is kept.
    YAML::Node node = tree_->root;
    std::string walked;
    for (std::size_t i = 0; i < steps->size(); ++i) {
        const PathStep& step = (*steps)[i];
        const YAML::Node& here = node;
        if (!here.IsMap()) return in_quotes(walked) + " holds a value, not keys such as " + in_quotes(step.key);
        if (i + 1 == steps->size() && written_only_when_set && !here[step.key]) return std::nullopt;
        if (!here[step.key]) {
            std::vector<std::string> keys;
            for (const auto& entry : here) keys.push_back(entry.first.as<std::string>());
            const std::vector<std::string_view> known(keys.begin(), keys.end());
            return (walked.empty() ? std::string("a scenario") : in_quotes(walked)) + " has no " +
                   in_quotes(step.key) + did_you_mean_suffix(step.key, known);
        }
        YAML::Node next = here[step.key];
        walked += (walked.empty() ? "" : ".") + step.key;
        if (step.index) {
            if (!next.IsSequence()) return in_quotes(walked) + " is not a list";
            if (*step.index >= next.size()) {
                return in_quotes(walked) + " has " +
                       count_phrase(static_cast<std::int64_t>(next.size()), "entry", "entries") + "; there is no [" +
                       std::to_string(*step.index) + "]";
            }
            walked += "[" + std::to_string(*step.index) + "]";
            next.reset(static_cast<const YAML::Node&>(next)[*step.index]);
        }
        node.reset(next);
    }
    return std::nullopt;
}

Expected<std::string, Diagnostic> point_yaml(const std::string& base_yaml, std::span<const AxisValue> values) {
    const YAML::Node root = YAML::Load(base_yaml);
    const std::string base_stack = scalar_at(root, "training.stack");
    return patched(root, base_stack, values, [](YAML::Node tree, const AxisValue& axis) {
        return set_at(tree, axis.path, axis.value);
    });
}

LoadResult scenario_at(const std::string& base_yaml, std::span<const AxisValue> values, const std::string& point_name,
                       const std::filesystem::path& base_directory) {
    Expected<std::string, Diagnostic> yaml = point_yaml(base_yaml, values);
    if (!yaml) {
        LoadResult refused;
        refused.diagnostics.push_back(yaml.error());
        return refused;
    }
    return load_scenario_text(yaml.value(), point_name, base_directory);
}

}  // namespace parasight

namespace parasight {

struct PointScenarios::Base {
    std::string yaml;
    YAML::Node tree;  // parsed once; read only under `mutex` (YAML::Clone), as yaml-cpp nodes share their memory
    bool is_map = false;  // whether `tree` is a scenario's mapping: else every point is read from its text
    std::string stack;
    std::mutex mutex;
    // `tree` as the emitter writes it, and where each of its scalars is: a point that only changes scalars the base
    // has (no training.stack, which removes keys) is this text with theirs put in their place — what emitting the
    // point's tree writes (test_sweep_point compares the two), at a fraction of its cost.
    std::string emitted;
    std::unordered_map<std::string, WrittenScalar> scalars;
    // What each axis value reads back as where it is written (as_written), by value and whether in a flow
    // collection: a scalar's text, or nothing where it reads as something else (null, a list) and is parsed each
    // time. A few values, each asked for at every point: parsing it was a quarter of putting a point together.
    std::mutex read_back_mutex;
    std::map<std::pair<std::string, bool>, std::optional<std::string>> read_back;

    // The node `value` reads back as at a place in or out of a flow collection; nothing when it cannot be written
    // there (the point is then read from its text).
    std::optional<YAML::Node> written(const std::string& value, bool in_flow);

    // Copies of `tree` not in use, one taken by each point loaded in place (cloning the tree and freeing the clone
    // were half of putting a point together).
    std::mutex idle_trees_mutex;
    std::vector<YAML::Node> idle_trees;

    // The point loaded from a copy of `tree` with its values' scalars set in place and put back after, where every
    // value sets a scalar the base has and reads back as a scalar known already (a point put together the other way
    // first found it); nothing otherwise.
    std::optional<Point> loaded_in_place(std::span<const AxisValue> values, const std::string& point_name,
                                         const std::filesystem::path& base_directory);

    // The point's YAML put together from `emitted`, or nothing where it must be emitted whole.
    [[nodiscard]] std::optional<std::string> spliced(std::span<const AxisValue> values) const;
};

std::optional<std::string> PointScenarios::Base::spliced(std::span<const AxisValue> values) const {
    struct Put {
        std::size_t offset;
        std::size_t length;
        std::string text;
    };
    std::vector<Put> puts;
    puts.reserve(values.size());
    for (const AxisValue& axis : values) {
        if (axis.path == "training.stack") return std::nullopt;
        const auto found = scalars.find(axis.path);
        if (found == scalars.end()) return std::nullopt;
        std::optional<std::string> text = written_scalar(axis.value, found->second.in_flow);
        if (!text) return std::nullopt;
        puts.push_back(Put{found->second.offset, found->second.length, std::move(*text)});
    }
    std::sort(puts.begin(), puts.end(), [](const Put& a, const Put& b) { return a.offset < b.offset; });
    std::string text;
    text.reserve(emitted.size() + 64);
    std::size_t from = 0;
    for (const Put& put : puts) {
        if (put.offset < from) return std::nullopt;  // one path twice
        text.append(emitted, from, put.offset - from);
        text += put.text;
        from = put.offset + put.length;
    }
    text.append(emitted, from, std::string::npos);
    return text;
}

PointScenarios::PointScenarios(std::string base_yaml) : base_(std::make_unique<Base>()) {
    base_->yaml = std::move(base_yaml);
    try {
        base_->tree = YAML::Load(base_->yaml);
        base_->is_map = base_->tree.IsMap();
        if (base_->is_map) {
            base_->stack = scalar_at(base_->tree, "training.stack");
            base_->emitted = emitted(base_->tree);
            index_scalars(YAML::Load(base_->emitted), {}, false, base_->emitted, base_->scalars);
        }
    } catch (const YAML::Exception&) {
        base_->is_map = false;  // not YAML: every point is read from its text, which says why
    }
}

std::optional<YAML::Node> PointScenarios::Base::written(const std::string& value, bool in_flow) {
    {
        const std::lock_guard lock(read_back_mutex);
        const auto found = read_back.find({value, in_flow});
        if (found != read_back.end() && found->second) return YAML::Node(*found->second);
    }
    std::optional<YAML::Node> node = as_written(value, in_flow);
    if (node) {
        const std::lock_guard lock(read_back_mutex);
        read_back.emplace(std::pair{value, in_flow},
                          node->IsScalar() ? std::optional<std::string>(node->Scalar()) : std::nullopt);
    }
    return node;
}

std::optional<PointScenarios::Point> PointScenarios::Base::loaded_in_place(
    std::span<const AxisValue> values, const std::string& point_name, const std::filesystem::path& base_directory) {
    std::optional<std::string> text = spliced(values);  // none with training.stack or a path that is not a scalar
    if (!text) return std::nullopt;
    YAML::Node copy;
    {
        const std::lock_guard lock(idle_trees_mutex);
        if (!idle_trees.empty()) {
            copy = std::move(idle_trees.back());
            idle_trees.pop_back();
        }
    }
    if (!copy.IsMap()) {
        const std::lock_guard lock(mutex);
        copy = YAML::Clone(tree);
    }
    // Each place and its scalar as the base has it: put back however this ends, and the copy is idle again.
    struct Kept {
        YAML::Node node;
        std::string scalar;
    };
    struct PutBack {
        Base& base;
        YAML::Node copy;
        std::vector<Kept> kept;
        ~PutBack() {
            for (auto place = kept.rbegin(); place != kept.rend(); ++place) place->node = place->scalar;
            kept.clear();
            const std::lock_guard lock(base.idle_trees_mutex);
            base.idle_trees.push_back(std::move(copy));
        }
    } put_back{*this, std::move(copy), {}};
    std::vector<std::string> read_as;
    read_as.reserve(values.size());
    put_back.kept.reserve(values.size());
    for (const AxisValue& axis : values) {
        Expected<Place, std::string> place = place_at(put_back.copy, axis.path);
        if (!place || !place.value().node.IsScalar()) return std::nullopt;  // spliced() found it: never
        {
            const std::lock_guard lock(read_back_mutex);
            const auto found = read_back.find({axis.value, place.value().in_flow});
            if (found == read_back.end() || !found->second) return std::nullopt;
            read_as.push_back(*found->second);
        }
        put_back.kept.push_back({place.value().node, place.value().node.Scalar()});
    }
    // The scalars set in place (their tags, styles and marks stay the base's, which the loader does not read).
    for (std::size_t v = 0; v < values.size(); ++v) put_back.kept[v].node = read_as[v];
    Point point;
    point.yaml = std::move(*text);
    point.loaded = load_scenario_yaml(put_back.copy, point_name, base_directory);
    return point;
}

PointScenarios::~PointScenarios() = default;

PointScenarios::Point PointScenarios::at(std::span<const AxisValue> values, const std::string& point_name,
                                         const std::filesystem::path& base_directory) const {
    Point point;
    const auto from_text = [&] {
        Expected<std::string, Diagnostic> yaml = point_yaml(base_->yaml, values);
        if (!yaml) {
            point.loaded.diagnostics.push_back(yaml.error());
            return point;
        }
        point.yaml = std::move(yaml).value();
        point.loaded = load_scenario_text(point.yaml, point_name, base_directory);
        return point;
    };
    if (!base_->is_map) return from_text();
    if (std::optional<Point> in_place = base_->loaded_in_place(values, point_name, base_directory)) {
        return std::move(*in_place);
    }
    YAML::Node root;
    {
        const std::lock_guard lock(base_->mutex);
        root = YAML::Clone(base_->tree);
    }
    bool written = true;
    std::optional<Diagnostic> problem =
        set_values(root, base_->stack, values, [&](YAML::Node tree, const AxisValue& axis) -> std::optional<std::string> {
            Expected<Place, std::string> place = place_at(tree, axis.path);
            if (!place) return place.error();
            std::optional<YAML::Node> value = base_->written(axis.value, place.value().in_flow);
            if (!value) {
                written = false;
                place.value().node = axis.value;
            } else {
                place.value().node = *value;
            }
            return std::nullopt;
        });
    if (!written) return from_text();
    if (problem) {
        point.loaded.diagnostics.push_back(std::move(*problem));
        return point;
    }
    std::optional<std::string> spliced = base_->spliced(values);
    point.yaml = spliced ? std::move(*spliced) : emitted(root);
    point.loaded = load_scenario_yaml(root, point_name, base_directory);
    return point;
}

}  // namespace parasight
