// libFuzzer target: any bytes as one of the peers' files — ASTRA-sim's network or system file, or one of Calculon's
// three — beside the others as they ship (tests/data/interop), through the importers: a scenario that loads, or
// diagnostics, never a crash, hang or leak; and a scenario imported from ASTRA-sim's files exports to files that
// import back to the same cluster.

#include "interop/astra_sim_export.h"
#include "interop/astra_sim_import.h"
#include "interop/calculon_import.h"
#include "scenario_file/scenario_loader.h"

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace {

parasight::PeerFile shipped(const std::string& relative) {
    std::ifstream in(std::string(PARASIGHT_SOURCE_DIR "/tests/data/interop/") + relative);
    std::stringstream text;
    text << in.rdbuf();
    return parasight::PeerFile{relative, text.str()};
}

// Either a scenario that loads or at least one diagnostic.
void check(const parasight::Expected<parasight::PeerImport, parasight::Diagnostics>& made) {
    if (!made) {
        if (made.error().empty()) std::abort();
        return;
    }
    if (!parasight::load_scenario_text(made->yaml, "imported").ok()) std::abort();
}

void round_trip(const parasight::Expected<parasight::PeerImport, parasight::Diagnostics>& made) {
    if (!made) return;
    const auto first = parasight::load_scenario_text(made->yaml, "imported");
    const auto files = parasight::export_astra_sim(first.scenario->value());
    if (!files) return;
    const auto again = parasight::import_astra_sim(parasight::PeerFile{"network.yml", files->network_yaml},
                                                   parasight::PeerFile{"system.json", files->system_json}, {});
    if (!again) std::abort();
    const auto second = parasight::load_scenario_text(again->yaml, "again");
    if (!second.ok()) std::abort();
    // Dimensions of one NPU are left out of ASTRA-sim's file (it has none), so only a file without them compares.
    if (second.scenario->value().cluster.topology != first.scenario->value().cluster.topology) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    static const parasight::PeerFile network = shipped("astra-sim/network/hgx_h100_32gpu.yml");
    static const parasight::PeerFile system = shipped("astra-sim/system/hgx_h100_32gpu.json");
    static const parasight::PeerFile calculon_system = shipped("calculon/systems/a100_80g.json");
    static const parasight::PeerFile calculon_model = shipped("calculon/models/gpt3-175B.json");
    static const parasight::PeerFile calculon_execution = shipped("calculon/examples/3072_t4_p64_d12_mbs4_full.json");
    // The first byte says which file the rest is.
    const parasight::PeerFile fuzzed{"fuzz", std::string(reinterpret_cast<const char*>(data) + 1, size - 1)};
    switch (data[0] % 6) {
    case 0: {
        const auto made = parasight::import_astra_sim(fuzzed, std::nullopt, {});
        check(made);
        round_trip(made);
        break;
    }
    case 1: {
        const auto made = parasight::import_astra_sim(network, fuzzed, {});
        check(made);
        round_trip(made);
        break;
    }
    case 2: check(parasight::import_astra_sim(fuzzed, system, {})); break;
    case 3: check(parasight::import_calculon(fuzzed, calculon_model, calculon_execution)); break;
    case 4: check(parasight::import_calculon(calculon_system, fuzzed, calculon_execution)); break;
    default: check(parasight::import_calculon(calculon_system, calculon_model, fuzzed)); break;
    }
    return 0;
}
