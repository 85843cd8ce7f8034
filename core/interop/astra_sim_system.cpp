#include "interop/astra_sim_system.h"

#include "common/did_you_mean.h"
#include "common/enum_names.h"
#include "common/message_text.h"
#include "common/number_text.h"
#include "export/json_writer.h"
#include "interop/peer_file_lists.h"
#include "scenario_file/yaml_reader.h"

#include <array>

namespace parasight {
namespace {

constexpr std::array<EnumName<CollectiveAlgorithm>, 4> astra_sim_algorithm_names{
    {{CollectiveAlgorithm::ring, "ring"},
     {CollectiveAlgorithm::direct, "direct"},
     {CollectiveAlgorithm::halving_doubling, "halvingDoubling"},
     {CollectiveAlgorithm::double_binary_tree, "doubleBinaryTree"}}};

// The operations' lists, in the order ASTRA-sim reads them.
constexpr std::array<std::string_view, 4> implementation_keys{
    "all-reduce-implementation", "reduce-scatter-implementation", "all-gather-implementation",
    "all-to-all-implementation"};

constexpr std::array<std::string_view, 5> custom_keys{
    "all-reduce-implementation-custom", "reduce-scatter-implementation-custom", "all-gather-implementation-custom",
    "all-to-all-implementation-custom", "per-node-custom-implementation"};

// The settings ASTRA-sim reads that ParaSight has no counterpart for, and why; one whose value is what ParaSight does
// anyway (`as_parasight`) is no difference.
struct SettingNote {
    std::string_view key;
    std::string_view why;
    std::string_view as_parasight = {};
};
constexpr std::array<SettingNote, 13> setting_notes{{
    {"scheduling-policy",
     "the order ASTRA-sim's scheduler takes ready chunks; ParaSight runs each stream's collectives first come, first "
     "served (FIFO)",
     "FIFO"},
    {"collective-optimization",
     "ASTRA-sim's ordering of a collective's phases by local bandwidth; ParaSight runs a reduce-scatter innermost "
     "dimension first and an all-gather outermost first (baseline)",
     "baseline"},
    {"active-chunks-per-dimension",
     "ASTRA-sim's chunks in flight on a dimension; a ParaSight dimension serves one chunk at a time "
     "(docs/collectives.md, chunk pipelining)",
     "1"},
    {"local-reduction-delay", "ASTRA-sim's time to reduce a received chunk in local memory; ParaSight charges none"},
    {"L", "a LogGP parameter of ASTRA-sim's memory bus; ParaSight models no bus between NPU and network"},
    {"o", "a LogGP parameter of ASTRA-sim's memory bus; ParaSight models no bus between NPU and network"},
    {"g", "a LogGP parameter of ASTRA-sim's memory bus; ParaSight models no bus between NPU and network"},
    {"G", "a LogGP parameter of ASTRA-sim's memory bus; ParaSight models no bus between NPU and network"},
    {"model-shared-bus", "ASTRA-sim's shared memory bus; ParaSight models no bus between NPU and network"},
    {"trace-enabled", "what ASTRA-sim records, not what it times"},
    {"replay-only", "what ASTRA-sim records, not what it times"},
    {"track-local-mem", "what ASTRA-sim records, not what it times"},
    {"local-mem-trace-filename", "what ASTRA-sim records, not what it times"},
}};

std::vector<std::string_view> allowed_keys() {
    std::vector<std::string_view> keys(implementation_keys.begin(), implementation_keys.end());
    keys.insert(keys.end(), custom_keys.begin(), custom_keys.end());
    for (const SettingNote& note : setting_notes) keys.push_back(note.key);
    for (const std::string_view key :
         {"preferred-dataset-splits", "endpoint-delay", "roofline-enabled", "peak-perf", "local-mem-bw", "boost-mode"}) {
        keys.push_back(key);
    }
    return keys;
}

// ASTRA-sim's spelling of an implementation, or why ParaSight cannot run it.
Expected<CollectiveAlgorithm> algorithm_of(const std::string& name) {
    if (const auto algorithm = value_of(name, astra_sim_algorithm_names)) return *algorithm;
    if (name.rfind("one", 0) == 0) {
        return Error{in_quotes(name) + " runs one algorithm over every NPU as if the network had one dimension; "
                     "ParaSight runs a collective dimension by dimension (or as NCCL's ring across nodes, "
                     "cluster.multi_dimension_collectives: flat_ring), so it has no counterpart"};
    }
    if (name.rfind("direct", 0) == 0) {
        return Error{in_quotes(name) + " limits direct's sends in flight to " + name.substr(6) +
                     "; ParaSight's direct sends to every member at once: write \"direct\""};
    }
    const auto names = names_of(astra_sim_algorithm_names);
    return Error{in_quotes(name) + " is not a collective implementation ASTRA-sim has" + did_you_mean_suffix(name, names) +
                 "; expected " + join_alternatives(names)};
}

}  // namespace

std::optional<std::string_view> astra_sim_algorithm_name(CollectiveAlgorithm algorithm) noexcept {
    for (const auto& entry : astra_sim_algorithm_names) {
        if (entry.value == algorithm) return entry.name;
    }
    return std::nullopt;
}

std::optional<AstraSimSystem> read_astra_sim_system(std::string_view text, const std::string& file_name,
                                                    Diagnostics& diagnostics) {
    const std::size_t errors_before = diagnostics.size();
    YamlSource source(file_name, diagnostics);
    const auto root = load_yaml_document(text, source);
    if (!root) return std::nullopt;
    MapReader reader(MapReader::DocumentRoot{"the system file"}, *root, source, allowed_keys());
    if (!reader.is_map()) return std::nullopt;
    AstraSimSystem system;
    for (const std::string_view key : custom_keys) {
        if (reader.has(key)) {
            source.error(reader.key_location(key),
                         std::string(key) + ": ASTRA-sim's custom collectives (a Chakra execution trace of each "
                                            "collective) have no counterpart in ParaSight, whose collectives are "
                                            "algorithms per dimension; name one of ring, direct, halvingDoubling, "
                                            "doubleBinaryTree in " + std::string(implementation_keys.front()));
        }
    }

    PeerListReader lists(reader);
    std::string first_key;
    for (const std::string_view key : implementation_keys) {
        const auto entries = lists.entries(key, false);
        if (!entries) continue;
        std::vector<CollectiveAlgorithm> algorithms;
        std::vector<SourceLocation> places;
        for (std::size_t d = 0; d < entries->size(); ++d) {
            const YAML::Node& entry = (*entries)[d];
            const auto algorithm = algorithm_of(entry.Scalar());
            if (!algorithm) {
                source.error(entry, std::string(key) + "[" + std::to_string(d) + "]: " + algorithm.error());
                continue;
            }
            algorithms.push_back(*algorithm);
            places.push_back(source.location(entry));
        }
        if (algorithms.size() != entries->size()) continue;
        if (first_key.empty()) {
            first_key = key;
            system.algorithms = std::move(algorithms);
            system.algorithm_at = std::move(places);
            system.algorithms_at = reader.value_location(key);
            continue;
        }
        if (algorithms.size() != system.algorithms.size()) {
            source.error(reader.value_location(key), std::string(key) + " has " + std::to_string(algorithms.size()) +
                                                         " entries and " + first_key + " " +
                                                         std::to_string(system.algorithms.size()) +
                                                         ": one per dimension");
            continue;
        }
        for (std::size_t d = 0; d < algorithms.size(); ++d) {
            if (algorithms[d] == system.algorithms[d]) continue;
            source.error(places[d], std::string(key) + "[" + std::to_string(d) + "] is " +
                                        in_quotes(*astra_sim_algorithm_name(algorithms[d])) + " but " + first_key +
                                        "[" + std::to_string(d) + "] is " +
                                        in_quotes(*astra_sim_algorithm_name(system.algorithms[d])) +
                                        ": ParaSight runs one algorithm on a dimension for every operation");
        }
    }

    if (reader.has("preferred-dataset-splits")) {
        std::int64_t splits = 1;
        if (reader.read_integer("preferred-dataset-splits", splits, IntegerRange{1, 4096})) system.dataset_splits = splits;
    }
    if (reader.has("endpoint-delay")) {
        double delay = 0.0;
        if (reader.read_fraction("endpoint-delay", delay, NumberRange{0.0, 1e9})) system.endpoint_delay_ns = delay;
    }
    if (reader.has("roofline-enabled")) {
        std::int64_t enabled = 0;
        if (reader.read_integer("roofline-enabled", enabled, IntegerRange{0, 1})) system.roofline = enabled == 1;
    }
    if (reader.has("peak-perf")) {
        double peak = 0.0;
        if (reader.read_fraction("peak-perf", peak, NumberRange{1e-6, 1e7})) system.peak_TFLOPS = peak;
    }
    if (reader.has("local-mem-bw")) {
        double bandwidth = 0.0;
        if (reader.read_fraction("local-mem-bw", bandwidth, NumberRange{1e-3, 1e6})) system.local_memory_GBps = bandwidth;
    }
    if (system.roofline && (!system.peak_TFLOPS || !system.local_memory_GBps)) {
        source.error(reader.key_location("roofline-enabled"),
                     "roofline-enabled needs peak-perf (TFLOPS) and local-mem-bw (GB/s): ASTRA-sim's roofline "
                     "times compute from both");
    }
    std::string policy;
    if (reader.read_string("scheduling-policy", policy) && policy != "LIFO" && policy != "FIFO" && policy != "EXPLICIT") {
        source.error(reader.value_location("scheduling-policy"),
                     in_quotes(policy) + " is not a scheduling-policy ASTRA-sim has; expected LIFO, FIFO or EXPLICIT");
    }
    std::string optimization;
    if (reader.read_string("collective-optimization", optimization) && optimization != "baseline" &&
        optimization != "localBWAware") {
        source.error(reader.value_location("collective-optimization"),
                     in_quotes(optimization) +
                         " is not a collective-optimization ASTRA-sim has; expected baseline or localBWAware");
    }

    // What was read and has no counterpart, in the order ASTRA-sim reads it.
    for (const SettingNote& note : setting_notes) {
        if (!reader.has(note.key)) continue;
        const YAML::Node value = reader.value(note.key);
        const std::string shown = value.IsScalar() ? value.Scalar() : std::string(node_type_noun(value));
        if (!note.as_parasight.empty() && shown == note.as_parasight) continue;
        system.not_modelled.push_back(std::string(note.key) + ": " + shown + " — " + std::string(note.why));
    }
    if (!system.roofline && (system.peak_TFLOPS || system.local_memory_GBps)) {
        system.not_modelled.emplace_back("peak-perf, local-mem-bw — ASTRA-sim uses them only with roofline-enabled: 1");
    }
    if (reader.has("boost-mode")) {
        system.not_modelled.emplace_back("boost-mode — no part of ASTRA-sim 2.0 reads it");
    }
    if (diagnostics.size() > errors_before) return std::nullopt;
    return system;
}

std::string write_astra_sim_system(const AstraSimSystem& system) {
    JsonWriter json;
    json.begin_object();
    json.key("scheduling-policy").value("FIFO");
    json.key("endpoint-delay").value(system.endpoint_delay_ns.value_or(0.0));
    json.key("active-chunks-per-dimension").value(std::int64_t{1});
    json.key("preferred-dataset-splits").value(system.dataset_splits.value_or(1));
    for (const std::string_view key : implementation_keys) {
        json.key(key).begin_array();
        for (const CollectiveAlgorithm algorithm : system.algorithms) {
            json.value(astra_sim_algorithm_name(algorithm).value_or("ring"));
        }
        json.end_array();
    }
    json.key("collective-optimization").value("baseline");
    json.key("local-mem-bw").value(system.local_memory_GBps.value_or(0.0));
    json.key("roofline-enabled").value(std::int64_t{system.roofline ? 1 : 0});
    json.key("peak-perf").value(system.peak_TFLOPS.value_or(0.0));
    json.end_object();
    return json.text();
}

}  // namespace parasight
