// Memory systems (docs/model.md, "Memory systems"): the cluster's memory_system section read, checked and written
// back; transfers to and from host memory, NVMe and ASTRA-sim 2.0's hierarchical memory pool worked out by hand;
// optimizer states offloaded to host memory, event by event.
//
// tests/data/memory_system/seed-pool.yaml is the seed's worked example (Won et al. 2023, §III-C): G = 256 GPUs in
// N = 16 nodes of g = 16, S = 4 out-node switches, R = 8 remote memory groups, chunk c = 1 MB. Each GPU loads
// W = 64 MB:
//   group → switch link   W·G/(R·S) = 8W = 512 MB (the seed: "each link has to transfer 8W"), 512 chunks;
//                         a group's 4 GB/s over its 4 switch links = 1 GB/s: TX1 = 1 MB / 1 GB/s = 1 ms
//   switch → node link    W·g/S = 4W = 256 MB (the seed: "4W"); TX2 = R·c/(N·0.25 GB/s) = 8 MB / 4 GB/s = 2 ms
//   in-node switch → GPU  W = 64 MB; TX3 = R·S·c/(G·0.125 GB/s) = 32 MB / 32 GB/s = 1 ms
//   (each link: chunks × TX = its bytes / its bandwidth: 512 × 2 ms = 256 MB / 0.25 GB/s = 1.024 s)
//   Pipeline, each step as long as its slowest transfer: step 0 moves chunk 0 on stage 1 (1 ms); step 1 chunks 1
//   and 0 (2 ms); steps 2 … 511 all three stages (2 ms each, 510 steps); step 512 stages 2 and 3 (2 ms); step 513
//   the last chunk's stage 3 (1 ms): 1 + 2 + 1020 + 2 + 1 = 1026 ms.
// With in-switch collectives the switches gather: each switch forwards the W·G/S = 64W = 4096 MB it gathered to
// every node (the seed: "forwarding 64W to each node"), each GPU receives all G·W = 256W = 16 384 MB:
//   TX2 = R·c / 0.25 GB/s = 32 ms, TX3 = R·S·c / 0.125 GB/s = 256 ms; 512 chunks:
//   step 0: 1 ms, step 1: 32 ms, steps 2 … 513: 256 ms each (512 steps) → 1 + 32 + 131 072 = 131 105 ms.
//
// Offloaded optimizer states (parallelism.offload_optimizer): tests/data/memory_system/offload-host.yaml is GPT-2
// small on one A100 with host memory behind a 32 GB/s link, 10 µs a transfer. Ψ = 12·12·768² + 13·12·768 (layers)
// + 50 304·768 (the padded vocabulary's tied table) + 2·768 (final norm) = 123 689 472 parameters; bf16 Adam keeps
// fp32 master weights and two moments, 12 B each: 1 484 273 664 B, one sub-group (fewer than 10⁹ parameters). Once
// the backward ends they load (l = 10 µs + 1 484 273 664 B / 32 GB/s = 46.394 ms), the step updates them, and they
// are stored (l again): nothing else runs meanwhile on one device, so the iteration takes 2l longer than with the
// states on the device, all of it exposed memory time; its compute is the same. The device's peak (in the backward,
// with eight sequences' activations) is 12Ψ lower.
// offload-host-xl.yaml is GPT-2 XL: Ψ = 48·(12·1600² + 13·1600) + 50 304·1600 + 2·1600 = 1 556 048 000 parameters,
// two sub-groups of 778 024 000 (9 336 288 000 B of states each, l = 10 µs + 291.759 ms). Loads run one after another
// on the memory stream in, stores on the memory stream out (the link carries both directions at once); the first
// half's update (u) runs once its load ends and the second's once its own does: load 1 [0, l], load 2 [l, 2l],
// update 1 [l, l + u], store 1 [l + u, 2l + u] (u < l), update 2 [2l, 2l + u], store 2 [2l + u, 3l + u]. The
// iteration ends 3l + u after the backward instead of 2u.
//
// Offloaded parameters (parallelism.offload_parameters, ZeRO-3): a GPT-2 small layer has 12·768² + 13·768 =
// 7 087 872 parameters, 14 175 744 B in bf16. On one device in host memory (offload-host.yaml with zero 3 and the
// optimizer states on the device) each layer's shard is the whole layer: a load of l = 10 µs + 14 175 744 B / 32 GB/s
// = 452.992 µs before the layer's forward and again before its backward (24 an iteration), and after the step the 12
// layers' 170 108 928 B go back (10 µs + 5.315904 ms). The device keeps only the tied table and the final norm,
// 50 304·768 + 2·768 = 38 635 008 parameters: 77 270 016 B of weights instead of 247 378 944.
// In the seed's pool (seed-pool.yaml, dp 256): each GPU's shard of a layer is 14 175 744 / 256 = 55 374 B; a
// group–switch link carries 55 374·256/(8·4) = 442 992 B, 0.442992 of one 1 MB chunk, which crosses the three stages
// one after the other: 0.442992 × (1 + 2 + 1) ms = 1.771968 ms, then the layer's all-gather. With in-switch
// collectives the load is the gather (TX2 = 32 ms, TX3 = 256 ms): 0.442992 × (1 + 32 + 256) ms = 128.024688 ms, and
// every GPU receives the whole layer. The updated shards, 12 × 55 374 = 664 488 B a GPU, are stored without
// gathering: 664 488·256/32 = 5 315 904 B a group link, 5.315904 chunks (6, the last 0.315904): steps of 1, 2, 2, 2,
// 2, 2, 1 and 0.315904 ms = 12.315904 ms.
//
// Offloaded gradients (parallelism.offload_gradients, ZeRO 2): GPT-2 small's backward fills 25 MiB buckets
// (26 214 400 B) with 14 175 744 B a layer after the final norm's 3 072 B: layers 11 and 10 (28 354 560 B), then
// five pairs of 28 351 488 B, then the tied table's 50 304·768·2 = 77 266 944 B at the end — 247 378 944 B, 2Ψ. Each
// reduced bucket's shard is stored; the optimizer step loads the whole shard back with its states. On one device with
// host memory the shard is the bucket (10 µs + bytes / 32 GB/s each; the load 10 µs + 7.730592 ms). In the seed's
// pool with dp 256 the first bucket's shard is 110 760 B, 886 080 B a group link (0.88608 of a chunk): 3.54432 ms
// after its reduce-scatter, or 0.88608 × 289 ms = 256.07712 ms as the reduce-scatter itself in the switches. The step
// loads the 966 324-byte shard: 7 730 592 B a group link, 8 chunks (the last 0.730592): 1 + 2 + 2 + 4 × 2 + 2 +
// 1.461184 + 0.730592 = 17.191776 ms.

#include "export/warning_text.h"
#include "memory_system/node_memory_transfer.h"
#include "memory_system/pool_transfer.h"
#include "scenario_file/scenario_loader.h"
#include "scenario_file/scenario_writer.h"
#include "simulation/simulate.h"
#include "validation/validate.h"

#include <algorithm>
#include <utility>
#include <vector>

#include <QTest>

#include <string>

using namespace parasight;

namespace {

constexpr double MB = 1e6;
constexpr double ms = 1e-3;

bool near(double a, double b) { return std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b)); }

Scenario load(const char* name) {
    const LoadResult loaded = load_scenario_file(std::string(PARASIGHT_TEST_DATA_DIR "/memory_system/") + name);
    if (!loaded.ok()) qFatal("%s does not load: %s", name, loaded.diagnostics.front().to_string().c_str());
    return loaded.scenario->value();
}

Scenario seed_example() { return load("seed-pool.yaml"); }

SimulatedGraph run(const Scenario& scenario) {
    const Validation valid = validate(scenario);
    if (!valid.ok()) qFatal("invalid: %s", valid.diagnostics.front().to_string().c_str());
    auto simulated = simulate_graph(*valid.scenario, SimulateOptions{});
    if (!simulated) qFatal("the simulation failed: %s", simulated.error().message.c_str());
    return std::move(*simulated);
}

// The scenario as written (its optimizer states offloaded) and with the states on the device.
std::pair<SimulatedGraph, SimulatedGraph> run_with_and_without_offload(const char* name) {
    const Scenario offloaded = load(name);
    Scenario resident = offloaded;
    resident.parallelism.offload_optimizer = OffloadTarget::none;
    return {run(offloaded), run(resident)};
}

struct Ran {
    TaskKind kind;
    double start_s;
    double end_s;
    double bytes;
};

// Device 0's tasks of `kinds` that took time, by start.
std::vector<Ran> ran(const SimulatedGraph& simulated, std::initializer_list<TaskKind> kinds) {
    std::vector<Ran> result;
    for (std::size_t t = 0; t < simulated.graph.tasks.size(); ++t) {
        const Task& task = simulated.graph.tasks[t];
        const TaskTiming& timing = simulated.run.timings[t];
        if (task.device != 0 || timing.end_s <= timing.start_s) continue;
        if (std::find(kinds.begin(), kinds.end(), task.kind) == kinds.end()) continue;
        result.push_back(Ran{task.kind, timing.start_s, timing.end_s, task.bytes});
    }
    std::stable_sort(result.begin(), result.end(), [](const Ran& a, const Ran& b) { return a.start_s < b.start_s; });
    return result;
}

// Device 0's tasks with this label, in the order they were made.
std::vector<const Task*> labelled(const SimulatedGraph& simulated, const std::string& name) {
    std::vector<const Task*> found;
    for (const Task& task : simulated.graph.tasks) {
        if (task.device == 0 && simulated.graph.labels[static_cast<std::size_t>(task.label)] == name) {
            found.push_back(&task);
        }
    }
    return found;
}

// When a task of `simulated` ran.
const TaskTiming& timing_of(const SimulatedGraph& simulated, const Task* task) {
    return simulated.run.timings[static_cast<std::size_t>(task - simulated.graph.tasks.data())];
}

// When device 0's last forward, backward or recompute ended.
double backward_end_s(const SimulatedGraph& simulated) {
    double end_s = 0.0;
    for (const Ran& task : ran(simulated, {TaskKind::forward, TaskKind::backward, TaskKind::recompute})) {
        end_s = std::max(end_s, task.end_s);
    }
    return end_s;
}

}  // namespace

class TestMemorySystem : public QObject {
    Q_OBJECT

private slots:
    void readsEveryTier() {
        const Scenario scenario = seed_example();
        const MemorySystemSpec& memory = scenario.cluster.memory_system;
        // Not written: the innermost dimension's 16.
        QCOMPARE(memory.gpus_per_node, 0);
        QCOMPARE(scenario.cluster.gpus_per_node(), 16);
        QVERIFY(memory.host && memory.nvme && memory.pool);
        QCOMPARE(memory.host->capacity_bytes, 1024.0 * 1024 * 1024 * 1024);
        QCOMPARE(memory.host->link_bandwidth_Bps, 32e9);
        QCOMPARE(memory.host->latency_s, 10e-6);
        QCOMPARE(memory.nvme->capacity_bytes, 15e12);
        QCOMPARE(memory.nvme->bandwidth_Bps, 25e9);
        QCOMPARE(memory.nvme->latency_s, 100e-6);
        QCOMPARE(memory.pool->out_node_switches, 4);
        QCOMPARE(memory.pool->remote_groups, 8);
        QCOMPARE(memory.pool->chunk_bytes, 1e6);
        QCOMPARE(memory.pool->latency_s, 0.0);  // not written
        QVERIFY(!memory.pool->in_switch_collectives);
    }

    void writesAndReadsBack() {
        Scenario scenario = seed_example();
        scenario.cluster.memory_system.gpus_per_node = 8;
        scenario.cluster.memory_system.pool->in_switch_collectives = true;
        const std::string written = write_scenario_yaml(scenario);
        QVERIFY2(written.find("gpus_per_node: 8") != std::string::npos, written.c_str());
        const LoadResult again = load_scenario_text(written, "again.yaml");
        QVERIFY2(again.ok(), again.ok() ? "" : again.diagnostics.front().to_string().c_str());
        QVERIFY(again.scenario->value().cluster.memory_system == scenario.cluster.memory_system);
    }

    void noMemorySystemWritesNothing() {
        Scenario scenario = seed_example();
        scenario.cluster.memory_system = {};
        QVERIFY(write_scenario_yaml(scenario).find("memory_system") == std::string::npos);
    }

    void validateRefusesWhatTheLoaderRefuses() {
        // The same rules for a scenario built in memory (the window's form, a sweep point).
        Scenario scenario = seed_example();
        scenario.cluster.memory_system.gpus_per_node = 3;  // 256 devices are not whole nodes of 3
        scenario.cluster.memory_system.pool->chunk_bytes = 64.0;
        scenario.cluster.memory_system.host->link_bandwidth_Bps = 0.0;
        const Validation validation = validate(scenario);
        QVERIFY(!validation.ok());
        std::vector<std::string> paths;
        for (const Diagnostic& diagnostic : validation.diagnostics) paths.push_back(diagnostic.path);
        const std::vector<std::string> expected{"cluster.memory_system.gpus_per_node",
                                                "cluster.memory_system.host.link_bandwidth",
                                                "cluster.memory_system.pool.chunk"};
        QCOMPARE(paths, expected);
        QCOMPARE(validation.diagnostics.front().message,
                 std::string("cluster.memory_system.gpus_per_node 3 does not divide the cluster's 256 devices into "
                             "whole nodes"));
    }

    void poolLoadFollowsTheSeedsWorkedExample() {
        const Scenario scenario = seed_example();
        const PoolTransfer load = pool_transfer(*scenario.cluster.memory_system.pool, 256, 16, 64 * MB);
        QCOMPARE(load.chunks, 512.0);
        QCOMPARE(load.links[0].bytes, 512 * MB);  // 8W
        QCOMPARE(load.links[1].bytes, 256 * MB);  // 4W
        QCOMPARE(load.links[2].bytes, 64 * MB);   // W
        QCOMPARE(load.links[0].bandwidth_Bps, 1e9);
        QVERIFY(near(load.links[0].chunk_time_s, 1 * ms));
        QVERIFY(near(load.links[1].chunk_time_s, 2 * ms));
        QVERIFY(near(load.links[2].chunk_time_s, 1 * ms));
        for (const PoolLinkLoad& link : load.links) {
            QVERIFY(near(load.chunks * link.chunk_time_s, link.bytes / link.bandwidth_Bps));
        }
        QCOMPARE(load.received_bytes_per_gpu, 64 * MB);
        QVERIFY2(near(load.time_s, 1026 * ms), std::to_string(load.time_s).c_str());
    }

    void inSwitchGatherFollowsTheSeed() {
        MemoryPool pool = *seed_example().cluster.memory_system.pool;
        pool.in_switch_collectives = true;
        const PoolTransfer load = pool_transfer(pool, 256, 16, 64 * MB);
        QCOMPARE(load.links[0].bytes, 512 * MB);     // 8W, as without gathering
        QCOMPARE(load.links[1].bytes, 4096 * MB);    // 64W to each node
        QCOMPARE(load.links[2].bytes, 16384 * MB);   // 256W: the whole gathered tensor
        QCOMPARE(load.received_bytes_per_gpu, 16384 * MB);
        QVERIFY(near(load.links[1].chunk_time_s, 32 * ms));
        QVERIFY(near(load.links[2].chunk_time_s, 256 * ms));
        QVERIFY2(near(load.time_s, 131105 * ms), std::to_string(load.time_s).c_str());
    }

    void pipelineStepsLastAsTheirSlowestTransfer() {
        // Stages of 2, 1 and 2 ms over 3 chunks: step 0 {c0 on 1} 2, step 1 {c1 on 1, c0 on 2} 2,
        // step 2 {c2, c1, c0} 2, step 3 {c2 on 2, c1 on 3} 2, step 4 {c2 on 3} 2 → 10 ms; a pipeline whose steps
        // did not wait for one another would take 2 + 1 + 2 + 2 · 2 = 9 ms.
        MemoryPool pool = *seed_example().cluster.memory_system.pool;
        pool.remote_group_bandwidth_Bps = 2e9;     // 0.5 GB/s a link: TX1 = 2 ms
        pool.node_link_bandwidth_Bps = 0.5e9;      // TX2 = 8 MB / (16 · 0.5 GB/s) = 1 ms
        pool.in_node_bandwidth_Bps = 62.5e6;       // TX3 = 32 MB / (256 · 62.5 MB/s) = 2 ms
        // 3 chunks on a group link: W·256/32 = 3 MB → W = 0.375 MB.
        const PoolTransfer load = pool_transfer(pool, 256, 16, 0.375 * MB);
        QCOMPARE(load.chunks, 3.0);
        QVERIFY2(near(load.time_s, 10 * ms), std::to_string(load.time_s).c_str());
        // Two and a half chunks: the last moves half a chunk, in half the time on each stage: step 2 {c2/2 on 1: 1,
        // c1 on 2: 1, c0 on 3: 2} 2, step 3 {c2/2 on 2: 0.5, c1 on 3: 2} 2, step 4 {c2/2 on 3: 1} 1 → 2 + 2 + 2 + 2 +
        // 1 = 9 ms.
        const PoolTransfer partial = pool_transfer(pool, 256, 16, 0.3125 * MB);
        QCOMPARE(partial.chunks, 2.5);
        QVERIFY2(near(partial.time_s, 9 * ms), std::to_string(partial.time_s).c_str());
        // Latency once per transfer; nothing moved takes no time.
        pool.latency_s = 5e-6;
        QVERIFY(near(pool_transfer(pool, 256, 16, 0.375 * MB).time_s, 10 * ms + 5e-6));
        QCOMPARE(pool_transfer(pool, 256, 16, 0.0).time_s, 0.0);
    }

    void optimizerStatesOffloadedToHost() {
        const auto [with, without] = run_with_and_without_offload("offload-host.yaml");
        const double states_bytes = 12.0 * 123'689'472;
        const double l = 10e-6 + states_bytes / 32e9;

        const std::vector<Ran> moves = ran(with, {TaskKind::memory_load, TaskKind::memory_store});
        QCOMPARE(moves.size(), std::size_t{2});
        QCOMPARE(moves[0].kind, TaskKind::memory_load);
        QCOMPARE(moves[1].kind, TaskKind::memory_store);
        QCOMPARE(moves[0].bytes, states_bytes);
        QVERIFY(near(moves[0].end_s - moves[0].start_s, l));
        QVERIFY(near(moves[1].end_s - moves[1].start_s, l));
        // The load waits for the backward; the step for the load; the store for the step.
        QCOMPARE(moves[0].start_s, backward_end_s(with));
        const std::vector<Ran> step = ran(with, {TaskKind::optimizer});
        QCOMPARE(step.size(), std::size_t{1});
        QCOMPARE(step[0].start_s, moves[0].end_s);
        QCOMPARE(moves[1].start_s, step[0].end_s);

        const Report& a = with.report;
        const Report& b = without.report;
        QVERIFY(near(a.iteration_time_s, b.iteration_time_s + 2 * l));
        QVERIFY(near(a.breakdown.exposed_remote_memory_s, 2 * l));
        QVERIFY(near(a.breakdown.compute_s, b.breakdown.compute_s));
        QVERIFY(near(a.breakdown.exposed_local_memory_s, b.breakdown.exposed_local_memory_s));
        QCOMPARE(b.breakdown.exposed_remote_memory_s, 0.0);
        QVERIFY(near(a.breakdown.total_s(), a.iteration_time_s));
        // The states leave the device but for the step, which comes after the activations are gone.
        QVERIFY2(near(b.peak_memory_bytes - a.peak_memory_bytes, states_bytes),
                 qPrintable(QString::number(b.peak_memory_bytes - a.peak_memory_bytes, 'f', 0)));
        QCOMPARE(a.memory_by_category_bytes[static_cast<std::size_t>(MemoryCategory::optimizer)], 0.0);
    }

    void offloadedStatesGoThroughInSubGroups() {
        const auto [with, without] = run_with_and_without_offload("offload-host-xl.yaml");
        const double half_bytes = 12.0 * 778'024'000;
        const double l = 10e-6 + half_bytes / 32e9;

        const std::vector<Ran> moves = ran(with, {TaskKind::memory_load, TaskKind::memory_store});
        QCOMPARE(moves.size(), std::size_t{4});
        const std::vector<TaskKind> order{TaskKind::memory_load, TaskKind::memory_load, TaskKind::memory_store,
                                          TaskKind::memory_store};
        for (std::size_t i = 0; i < order.size(); ++i) {
            QCOMPARE(moves[i].kind, order[i]);
            QCOMPARE(moves[i].bytes, half_bytes);
        }
        const double t0 = backward_end_s(with);
        const std::vector<Ran> steps = ran(with, {TaskKind::optimizer});
        QCOMPARE(steps.size(), std::size_t{2});
        const double u = steps[0].end_s - steps[0].start_s;
        QVERIFY(u < l);
        QVERIFY(near(steps[0].start_s - t0, l));
        QVERIFY(near(steps[1].start_s - t0, 2 * l));
        QVERIFY(near(moves[2].start_s - t0, l + u));
        QVERIFY(near(moves[3].start_s - t0, 2 * l + u));
        QVERIFY(near(moves[3].end_s - t0, 3 * l + u));
        // Without offloading, one step of twice the work ends the iteration 2u after the backward.
        QVERIFY(near(with.report.iteration_time_s - without.report.iteration_time_s, 3 * l - u));
    }

    void smallerSubGroupsHoldLessOnTheDevice() {
        // GPT-2 XL's 1 556 048 000 parameters in sub-groups of 4·10⁸: 4 of 389 012 000 (4 668 144 000 B of states
        // each), so 8 transfers, and at most two sub-groups on the device during the step instead of both halves:
        // its peak (in the step, with one sequence's activations long gone) falls by 2 × 4 668 144 000 B — the
        // 18 672 576 000 B of all the states less the 9 336 288 000 B of two quarters.
        Scenario quarters = load("offload-host-xl.yaml");
        quarters.parallelism.offload_sub_group = 400'000'000;
        const SimulatedGraph small = run(quarters);
        const SimulatedGraph halves = run(load("offload-host-xl.yaml"));
        const std::vector<Ran> moves = ran(small, {TaskKind::memory_load, TaskKind::memory_store});
        QCOMPARE(moves.size(), std::size_t{8});
        QCOMPARE(moves.front().bytes, 12.0 * 389'012'000);
        QCOMPARE(halves.report.peak_memory_bytes - small.report.peak_memory_bytes, 2 * 12.0 * 389'012'000);

        // Without offloaded states it is kept and changes nothing (the form switches offload_optimizer to none and
        // back without a field for the tile): the run is the resident one.
        Scenario resident = quarters;
        resident.parallelism.offload_optimizer = OffloadTarget::none;
        Scenario plain = resident;
        plain.parallelism.offload_sub_group.reset();
        QCOMPARE(run(resident).report.iteration_time_s, run(plain).report.iteration_time_s);
    }

    void tooManySubGroupsAreRefusedBeforeTheyAreMade() {
        // GPT-2 XL in sub-groups of 10⁶ parameters: 1 557 of them, three tasks each — past a cap of 2 000 tasks that the
        // same run without offloading fits in (the cap guards the graph's memory; the refusal comes before the tasks
        // are made, not after).
        Scenario tiny = load("offload-host-xl.yaml");
        tiny.parallelism.offload_sub_group = 1'000'000;
        SimulateOptions capped;
        capped.max_tasks = 2'000;
        const Validation valid = validate(tiny);
        QVERIFY(valid.ok());
        const auto refused = simulate(*valid.scenario, capped);
        QVERIFY(!refused);
        QCOMPARE(refused.error().kind, SimulationErrorKind::too_large);
        QVERIFY2(refused.error().message.ends_with(", or move the offloaded optimizer states and gradients in larger "
                                                   "sub-groups (parallelism.offload_sub_group: up to four tasks each)"),
                 refused.error().message.c_str());
        QVERIFY(refused.error().graph_tasks > 3 * 1557.0);
        Scenario resident = tiny;
        resident.parallelism.offload_optimizer = OffloadTarget::none;
        QVERIFY(simulate(resident, capped).has_value());
    }

    void offloadBeyondTheTiersCapacityIsWarned() {
        // 1 484 273 664 B of states on the one node, whose host memory holds 1 GiB = 1 073 741 824 B.
        Scenario scenario = load("offload-host.yaml");
        scenario.cluster.memory_system.host->capacity_bytes = 1024.0 * 1024 * 1024;
        const Report report = run(scenario).report;
        QCOMPARE(report.warnings.size(), std::size_t{1});
        const Warning& host = report.warnings.front();
        QCOMPARE(host.code, WarningCode::offload_over_capacity);
        QCOMPARE(host.subject, std::string("cluster.memory_system.host"));
        QCOMPARE(host.npu, std::int64_t{0});
        QCOMPARE(host.needed_bytes, 12.0 * 123'689'472);
        QCOMPARE(host.capacity_bytes, 1024.0 * 1024 * 1024);
        QCOMPARE(warning_text(host), std::string("the model states offloaded to host memory need 1.382 GiB on the "
                                                 "node of NPU 0, more than the 1 GiB it holds "
                                                 "(cluster.memory_system.host)"));
        QCOMPARE(report.offloads.size(), std::size_t{1});
        QVERIFY(report.offloads.front().exceeds_capacity());
        QCOMPARE(report.offloads.front().target, OffloadTarget::host);
        QVERIFY(report.offloads.front().optimizer && !report.offloads.front().parameters);
        // Enough room: no warning, and the report says how much of the tier they take.
        const Report roomy = run(load("offload-host.yaml")).report;
        QVERIFY(roomy.warnings.empty());
        QCOMPARE(roomy.offloads.size(), std::size_t{1});
        QCOMPARE(roomy.offloads.front().bytes, 12.0 * 123'689'472);
        QCOMPARE(roomy.offloads.front().capacity_bytes, 1024.0 * 1024 * 1024 * 1024);
        QVERIFY(run(seed_example()).report.offloads.empty());

        // The seed's pool for 256 data-parallel replicas of GPT-2 small, each keeping all its states (no ZeRO):
        // 256 × 1 484 273 664 B = 379 974 057 984 B in 8 groups of 40 GB = 320 GB.
        Scenario pooled = seed_example();
        pooled.parallelism.offload_optimizer = OffloadTarget::pool;
        pooled.cluster.memory_system.pool->group_capacity_bytes = 40e9;
        const Report pool_report = run(pooled).report;
        QCOMPARE(pool_report.warnings.size(), std::size_t{1});
        const Warning& pool = pool_report.warnings.front();
        QCOMPARE(pool.subject, std::string("cluster.memory_system.pool"));
        QCOMPARE(pool.needed_bytes, 256 * 12.0 * 123'689'472);
        QCOMPARE(pool.capacity_bytes, 320e9);
        QCOMPARE(warning_text(pool), std::string("the model states offloaded to the memory pool need 353.9 GiB from "
                                                 "every device, more than the 298 GiB it holds "
                                                 "(cluster.memory_system.pool)"));
    }

    void parametersOffloadedToHost() {
        Scenario scenario = load("offload-host.yaml");
        scenario.parallelism.offload_optimizer = OffloadTarget::none;
        scenario.parallelism.zero = 3;
        Scenario resident = scenario;
        scenario.parallelism.offload_parameters = OffloadTarget::host;
        const SimulatedGraph with = run(scenario);
        const SimulatedGraph without = run(resident);
        const double layer_bytes = 14'175'744.0;
        const double l = 10e-6 + layer_bytes / 32e9;

        const std::vector<const Task*> loads = labelled(with, "parameter load");
        const std::vector<const Task*> stores = labelled(with, "parameter store");
        QCOMPARE(stores.size(), std::size_t{1});
        const Task* store = stores.front();
        QCOMPARE(loads.size(), std::size_t{24});
        for (std::size_t k = 0; k < loads.size(); ++k) {
            const Task* task = loads[k];
            QCOMPARE(task->kind, TaskKind::memory_load);
            QCOMPARE(task->stream, Stream::memory_in);
            QCOMPARE(task->bytes, layer_bytes);
            QVERIFY(near(task->work_s, l));
            const TaskTiming& load = timing_of(with, task);
            QVERIFY(near(load.end_s - load.start_s, l));
            // Nothing of its layer's pass computes before it is in.
            const bool backward = k >= 12;
            for (std::size_t t = 0; t < with.graph.tasks.size(); ++t) {
                const Task& other = with.graph.tasks[t];
                const bool pass = backward ? (other.kind == TaskKind::backward || other.kind == TaskKind::recompute)
                                           : other.kind == TaskKind::forward;
                if (other.layer != task->layer || !pass) continue;
                QVERIFY(with.run.timings[t].start_s >= load.end_s);
            }
        }
        QCOMPARE(store->kind, TaskKind::memory_store);
        QCOMPARE(store->bytes, 12 * layer_bytes);
        QVERIFY(near(store->work_s, 10e-6 + 12 * layer_bytes / 32e9));

        const auto category = [](const Report& report, MemoryCategory c) {
            return report.memory_by_category_bytes[static_cast<std::size_t>(c)];
        };
        QCOMPARE(category(with.report, MemoryCategory::weights), 77'270'016.0);
        QCOMPARE(category(without.report, MemoryCategory::weights), 247'378'944.0);
        // At the peak, the layers loaded (whole: one shard of one) are buffers, one or two of them.
        const double buffers = category(with.report, MemoryCategory::buffers);
        QVERIFY2(buffers == layer_bytes || buffers == 2 * layer_bytes, qPrintable(QString::number(buffers, 'f', 0)));
        QVERIFY(with.report.peak_memory_bytes < without.report.peak_memory_bytes - 12 * layer_bytes + 2 * layer_bytes);
        QCOMPARE(with.report.offloads.size(), std::size_t{1});
        const OffloadUse& use = with.report.offloads.front();
        QVERIFY(use.parameters && !use.optimizer);
        QCOMPARE(use.target, OffloadTarget::host);
        QCOMPARE(use.bytes, 12 * layer_bytes);
        // The memory stream in runs the 24 loads one after the other, and the store comes after the step; the first
        // layer's load has only the embedding beside it, so memory time is exposed and the iteration is longer.
        QVERIFY(with.report.iteration_time_s >= 24 * l + store->work_s);
        QVERIFY(with.report.breakdown.exposed_remote_memory_s > 0.0);
        QVERIFY(with.report.iteration_time_s > without.report.iteration_time_s);
        QVERIFY(near(with.report.breakdown.total_s(), with.report.iteration_time_s));
        QVERIFY(near(with.report.breakdown.compute_s, without.report.breakdown.compute_s));
    }

    void parametersOffloadedToThePool() {
        Scenario scenario = seed_example();
        scenario.parallelism.zero = 3;
        scenario.parallelism.offload_parameters = OffloadTarget::pool;
        const SimulatedGraph shards = run(scenario);
        const auto loads = labelled(shards, "parameter load");
        QCOMPARE(loads.size(), std::size_t{24});
        QCOMPARE(loads.front()->bytes, 55'374.0);
        QVERIFY(near(loads.front()->work_s, 0.442992 * 4 * ms));
        QCOMPARE(labelled(shards, "zero-3 parameter all-gather").size(), std::size_t{24});
        const auto stores = labelled(shards, "parameter store");
        QCOMPARE(stores.size(), std::size_t{1});
        QCOMPARE(stores.front()->bytes, 12 * 55'374.0);
        QVERIFY(near(stores.front()->work_s, 12.315904 * ms));
        QCOMPARE(shards.report.offloads.size(), std::size_t{1});
        QCOMPARE(shards.report.offloads.front().bytes, 256 * 12 * 55'374.0);

        // The switches gather: the load brings the whole layer, and no all-gather is left; the store is not gathered.
        scenario.cluster.memory_system.pool->in_switch_collectives = true;
        const SimulatedGraph gathered = run(scenario);
        const auto whole = labelled(gathered, "parameter load, gathered in the switches");
        QCOMPARE(whole.size(), std::size_t{24});
        QCOMPARE(whole.front()->bytes, 14'175'744.0);
        QVERIFY(near(whole.front()->work_s, 0.442992 * 289 * ms));
        QVERIFY(labelled(gathered, "zero-3 parameter all-gather").empty());
        QVERIFY(near(labelled(gathered, "parameter store").front()->work_s, 12.315904 * ms));
    }

    void gradientsOffloadedToHost() {
        Scenario scenario = load("offload-host.yaml");
        scenario.parallelism.offload_optimizer = OffloadTarget::none;
        scenario.parallelism.zero = 2;
        Scenario resident = scenario;
        scenario.parallelism.offload_gradients = OffloadTarget::host;
        const SimulatedGraph with = run(scenario);
        const SimulatedGraph without = run(resident);
        const std::vector<double> buckets{28'354'560.0, 28'351'488.0, 28'351'488.0, 28'351'488.0,
                                          28'351'488.0, 28'351'488.0, 77'266'944.0};
        const std::vector<const Task*> stores = labelled(with, "gradient store");
        QCOMPARE(stores.size(), buckets.size());
        double last_store_end_s = 0.0;
        for (std::size_t k = 0; k < stores.size(); ++k) {
            QCOMPARE(stores[k]->kind, TaskKind::memory_store);
            QCOMPARE(stores[k]->bytes, buckets[k]);
            QVERIFY(near(stores[k]->work_s, 10e-6 + buckets[k] / 32e9));
            last_store_end_s = std::max(last_store_end_s, timing_of(with, stores[k]).end_s);
        }
        const std::vector<const Task*> loads = labelled(with, "gradient load");
        QCOMPARE(loads.size(), std::size_t{1});
        const Task& load = *loads.front();
        QCOMPARE(load.bytes, 247'378'944.0);
        QVERIFY(near(load.work_s, 10e-6 + 7.730592 * ms));
        QCOMPARE(load.allocate_category, MemoryCategory::gradients);
        // The load comes after every store, and the step after the load, which it frees.
        const TaskTiming& loaded = timing_of(with, loads.front());
        QVERIFY(loaded.start_s >= last_store_end_s);
        const std::vector<Ran> step = ran(with, {TaskKind::optimizer});
        QCOMPARE(step.size(), std::size_t{1});
        QCOMPARE(step[0].start_s, loaded.end_s);
        // At the peak, in the backward, no gradient is on the device; without offloading its 2Ψ are.
        const auto gradients = [](const Report& report) {
            return report.memory_by_category_bytes[static_cast<std::size_t>(MemoryCategory::gradients)];
        };
        QCOMPARE(gradients(with.report), 0.0);
        QCOMPARE(gradients(without.report), 247'378'944.0);
        QVERIFY(near(without.report.peak_memory_bytes - with.report.peak_memory_bytes, 247'378'944.0));
        QCOMPARE(with.report.offloads.size(), std::size_t{1});
        QVERIFY(with.report.offloads.front().gradients && !with.report.offloads.front().optimizer);
        QCOMPARE(with.report.offloads.front().bytes, 247'378'944.0);
        QVERIFY(with.report.breakdown.exposed_remote_memory_s >= load.work_s);
        QVERIFY(near(with.report.breakdown.compute_s, without.report.breakdown.compute_s));
    }

    void optimizerStepOnTheHost() {
        // ZeRO-Offload (offload-host.yaml with zero 2, gradients and states in host memory, the step on the host's
        // CPUs over 409.6 GB/s of CPU memory, the node's one GPU): no state moves; the step streams 30 B a parameter
        // (Adam's fp32 master, m and v read and written, the fp32 gradient read, the bf16 weights written),
        // Ψ · 30 = 3 710 684 160 B / 409.6 GB/s = 9.0592875 ms, once the last gradient shard is stored; then the
        // updated bf16 weights load back, 2Ψ = 247 378 944 B: 10 µs + 7.730592 ms. The device computes nothing from
        // the backward's end: the iteration is the backward, the last store, the step and the load.
        Scenario scenario = load("offload-host.yaml");
        scenario.parallelism.zero = 2;
        scenario.parallelism.offload_gradients = OffloadTarget::host;
        Scenario on_device = scenario;
        scenario.parallelism.optimizer_step_on = OptimizerStepPlace::host;
        scenario.cluster.memory_system.host->memory_bandwidth_Bps = 409.6e9;
        const SimulatedGraph with = run(scenario);
        const SimulatedGraph without = run(on_device);
        QVERIFY(ran(with, {TaskKind::optimizer}).empty());
        QVERIFY(labelled(with, "optimizer state load").empty() && labelled(with, "optimizer state store").empty());
        QVERIFY(labelled(with, "gradient load").empty());
        const std::vector<const Task*> steps = labelled(with, "optimizer step on the host");
        QCOMPARE(steps.size(), std::size_t{1});
        QCOMPARE(steps.front()->kind, TaskKind::host_optimizer);
        QCOMPARE(steps.front()->stream, Stream::memory_out);
        QCOMPARE(steps.front()->bytes, 3'710'684'160.0);
        QVERIFY(near(steps.front()->work_s, 9.0592875 * ms));
        const std::vector<const Task*> loads = labelled(with, "updated parameter load");
        QCOMPARE(loads.size(), std::size_t{1});
        QCOMPARE(loads.front()->bytes, 247'378'944.0);
        QVERIFY(near(loads.front()->work_s, 10e-6 + 7.730592 * ms));
        QCOMPARE(loads.front()->allocate_bytes, 0.0);  // into the device's own copy
        // The last gradient store (the tied table's 77 266 944 B: 10 µs + 2.414592 ms) starts once the backward has
        // ended and the store before it is done (one after another on the memory stream out).
        const std::vector<const Task*> stores = labelled(with, "gradient store");
        QCOMPARE(stores.size(), std::size_t{7});
        const TaskTiming& last_store = timing_of(with, stores.back());
        const double backward_end = backward_end_s(with);
        QCOMPARE(stores.back()->bytes, 77'266'944.0);
        QCOMPARE(last_store.start_s, std::max(backward_end, timing_of(with, stores[5]).end_s));
        QVERIFY(near(last_store.end_s - last_store.start_s, 10e-6 + 2.414592 * ms));
        const TaskTiming& step = timing_of(with, steps.front());
        QCOMPARE(step.start_s, last_store.end_s);
        const TaskTiming& loaded = timing_of(with, loads.front());
        QCOMPARE(loaded.start_s, step.end_s);
        QVERIFY(near(with.report.iteration_time_s, last_store.end_s + 9.0592875 * ms + (10e-6 + 7.730592 * ms)));
        // All of it after the backward is the device waiting on host memory: exposed remote memory.
        QVERIFY(near(with.report.breakdown.exposed_remote_memory_s, with.report.iteration_time_s - backward_end));
        // Against the step on the device with the same states offloaded (loads of 12Ψ + 2Ψ, a store of 12Ψ over the
        // 32 GB/s link, about 102 ms): several times shorter.
        QVERIFY(without.report.iteration_time_s - backward_end > 4.0 * (with.report.iteration_time_s - backward_end));

        // In two sub-groups of Ψ/2 = 61 844 736 parameters: steps of 4.52964375 ms one after the other, each half's
        // weights (10 µs + 3.865296 ms) loading while the next half is stepped: the last load starts as the second
        // step ends.
        scenario.parallelism.offload_sub_group = 61'844'736;
        const SimulatedGraph halves = run(scenario);
        const std::vector<const Task*> half_steps = labelled(halves, "optimizer step on the host");
        const std::vector<const Task*> half_loads = labelled(halves, "updated parameter load");
        QCOMPARE(half_steps.size(), std::size_t{2});
        QCOMPARE(half_loads.size(), std::size_t{2});
        QVERIFY(near(half_steps[0]->work_s, 4.52964375 * ms));
        QVERIFY(near(half_loads[0]->work_s, 10e-6 + 3.865296 * ms));
        QCOMPARE(timing_of(halves, half_steps[1]).start_s, timing_of(halves, half_steps[0]).end_s);
        QCOMPARE(timing_of(halves, half_loads[0]).start_s, timing_of(halves, half_steps[0]).end_s);
        QCOMPARE(timing_of(halves, half_loads[1]).start_s, timing_of(halves, half_steps[1]).end_s);
        QVERIFY(near(halves.report.iteration_time_s,
                     last_store.end_s + 2 * 4.52964375 * ms + (10e-6 + 3.865296 * ms)));
    }

    void optimizerStepOnTheHostNeedsItsStatesThere_data() {
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("message");
        QTest::newRow("states on the device")
            << QStringLiteral("states") << QStringLiteral("an optimizer step on the host updates the optimizer's states "
                                                          "kept in host memory: set offload_optimizer: host (it is none)");
        QTest::newRow("gradients in NVMe")
            << QStringLiteral("gradients")
            << QStringLiteral("an optimizer step on the host updates them from the gradient shards stored in host "
                              "memory: set offload_gradients: host (it is nvme)");
        QTest::newRow("parameters in the pool")
            << QStringLiteral("parameters")
            << QStringLiteral("an optimizer step on the host writes the updated parameters in host memory, but "
                              "offload_parameters keeps them in the memory pool: keep them on the device or in host "
                              "memory");
        QTest::newRow("no CPU memory bandwidth")
            << QStringLiteral("bandwidth")
            << QStringLiteral("an optimizer step on the host streams the states through the host's CPU memory: give "
                              "cluster.memory_system.host.memory_bandwidth (e.g. 409.6 GB/s for two 8-channel "
                              "DDR4-3200 sockets)");
    }

    void optimizerStepOnTheHostNeedsItsStatesThere() {
        QFETCH(QString, change);
        QFETCH(QString, message);
        Scenario scenario = seed_example();
        scenario.parallelism.zero = 3;
        scenario.parallelism.offload_optimizer = OffloadTarget::host;
        scenario.parallelism.offload_gradients = OffloadTarget::host;
        scenario.parallelism.optimizer_step_on = OptimizerStepPlace::host;
        scenario.cluster.memory_system.host->memory_bandwidth_Bps = 409.6e9;
        QVERIFY(validate(scenario).ok());
        if (change == QStringLiteral("states")) scenario.parallelism.offload_optimizer = OffloadTarget::none;
        if (change == QStringLiteral("gradients")) scenario.parallelism.offload_gradients = OffloadTarget::nvme;
        if (change == QStringLiteral("parameters")) scenario.parallelism.offload_parameters = OffloadTarget::pool;
        if (change == QStringLiteral("bandwidth")) scenario.cluster.memory_system.host->memory_bandwidth_Bps = 0.0;
        const Validation validation = validate(scenario);
        QVERIFY(!validation.ok());
        QCOMPARE(validation.diagnostics.front().path, std::string("parallelism.optimizer_step_on"));
        QCOMPARE(QString::fromStdString(validation.diagnostics.front().message), message);
    }

    void gradientsOffloadedToThePool() {
        Scenario scenario = seed_example();
        scenario.parallelism.zero = 2;
        scenario.parallelism.offload_gradients = OffloadTarget::pool;
        const SimulatedGraph after_reduction = run(scenario);
        QCOMPARE(labelled(after_reduction, "dp reduce-scatter").size(), std::size_t{7});
        const auto stores = labelled(after_reduction, "gradient store");
        QCOMPARE(stores.size(), std::size_t{7});
        QCOMPARE(stores.front()->bytes, 110'760.0);
        QVERIFY(near(stores.front()->work_s, 0.88608 * 4 * ms));
        const auto loads = labelled(after_reduction, "gradient load");
        QCOMPARE(loads.size(), std::size_t{1});
        QCOMPARE(loads.front()->bytes, 966'324.0);
        QVERIFY(near(loads.front()->work_s, 17.191776 * ms));

        // The switches reduce-scatter what is stored: no reduce-scatter on the network; the step's load is not gathered.
        scenario.cluster.memory_system.pool->in_switch_collectives = true;
        const SimulatedGraph in_switch = run(scenario);
        QVERIFY(labelled(in_switch, "dp reduce-scatter").empty());
        const auto reduced = labelled(in_switch, "gradient store, reduce-scattered in the switches");
        QCOMPARE(reduced.size(), std::size_t{7});
        QVERIFY(near(reduced.front()->work_s, 0.88608 * 289 * ms));
        QVERIFY(near(labelled(in_switch, "gradient load").front()->work_s, 17.191776 * ms));
    }

    void offloadedGradientsNeedZero2AndAWholeGroupToReduceInTheSwitches() {
        Scenario scenario = seed_example();
        scenario.parallelism.zero = 1;
        scenario.parallelism.offload_gradients = OffloadTarget::nvme;
        Validation validation = validate(scenario);
        QVERIFY(!validation.ok());
        QCOMPARE(validation.diagnostics.front().path, std::string("parallelism.offload_gradients"));
        QCOMPARE(validation.diagnostics.front().message,
                 std::string("offload_gradients stores each device's shard of the gradients once a reduce-scatter has "
                             "made it (ZeRO-Offload); it needs zero: 2 or 3, and zero is 1"));
        scenario.parallelism.zero = 2;
        QVERIFY(validate(scenario).ok());
        scenario.parallelism.offload_gradients = OffloadTarget::pool;
        scenario.cluster.memory_system.pool->in_switch_collectives = true;
        scenario.parallelism.tp = 4;
        scenario.parallelism.dp = 64;
        validation = validate(scenario);
        QVERIFY(!validation.ok());
        QCOMPARE(validation.diagnostics.front().path, std::string("parallelism.offload_gradients"));
        QVERIFY(validation.diagnostics.front().message.starts_with(
            "the pool's in-switch collectives reduce-scatter a store over every one of the cluster's 256 devices, but "
            "the gradients are reduced over dp × cp × ep = 64 of them"));
    }

    void offloadedParametersNeedZero3AndAWholeGroupToGatherInTheSwitches() {
        Scenario scenario = seed_example();
        scenario.parallelism.offload_parameters = OffloadTarget::host;
        Validation validation = validate(scenario);
        QVERIFY(!validation.ok());
        QCOMPARE(validation.diagnostics.front().path, std::string("parallelism.offload_parameters"));
        QCOMPARE(validation.diagnostics.front().message,
                 std::string("offload_parameters moves each layer's ZeRO-3 shard in before the layer gathers it "
                             "(ZeRO-Infinity); it needs zero: 3, and zero is 0"));
        scenario.parallelism.zero = 3;
        QVERIFY(validate(scenario).ok());
        // In-switch gathering over all 256 GPUs needs ZeRO-3's group to be all of them: with tp 2 it is 128.
        scenario.parallelism.offload_parameters = OffloadTarget::pool;
        scenario.cluster.memory_system.pool->in_switch_collectives = true;
        QVERIFY(validate(scenario).ok());
        scenario.parallelism.tp = 2;
        scenario.parallelism.dp = 128;
        validation = validate(scenario);
        QVERIFY(!validation.ok());
        QCOMPARE(validation.diagnostics.front().path, std::string("parallelism.offload_parameters"));
        QVERIFY(validation.diagnostics.front().message.starts_with(
            "the pool's in-switch collectives gather a load over every one of the cluster's 256 devices, but ZeRO-3 "
            "shards each layer over dp × cp = 128 of them"));
        scenario.cluster.memory_system.pool->in_switch_collectives = false;
        QVERIFY(validate(scenario).ok());
        // Its tier must be described, as the optimizer's.
        scenario.cluster.memory_system.pool.reset();
        QCOMPARE(validate(scenario).diagnostics.front().message,
                 std::string("offload_parameters: pool needs the cluster's memory_system.pool (its capacity and "
                             "bandwidth); the cluster describes other tiers only"));
    }

    void offloadIsWrittenBack() {
        const Scenario scenario = load("offload-host.yaml");
        const std::string written = write_scenario_yaml(scenario);
        QVERIFY2(written.find("offload_optimizer: host") != std::string::npos, written.c_str());
        QVERIFY(written.find("offload_sub_group") == std::string::npos);
        Scenario tiled = scenario;
        tiled.parallelism.offload_sub_group = 100'000'000;
        const LoadResult tiled_again = load_scenario_text(write_scenario_yaml(tiled), "tiled.yaml");
        QVERIFY(tiled_again.ok());
        QCOMPARE(tiled_again.scenario->value().parallelism.offload_sub_group, std::optional<std::int64_t>{100'000'000});
        const LoadResult again = load_scenario_text(written, "again.yaml");
        QVERIFY(again.ok());
        QVERIFY(again.scenario->value() == scenario);
        Scenario resident = scenario;
        resident.parallelism.offload_optimizer = OffloadTarget::none;
        QVERIFY(write_scenario_yaml(resident).find("offload_optimizer") == std::string::npos);
        QVERIFY(written.find("offload_parameters") == std::string::npos);
        Scenario parameters = scenario;
        parameters.parallelism.zero = 3;
        parameters.parallelism.offload_parameters = OffloadTarget::host;
        const std::string with_parameters = write_scenario_yaml(parameters);
        QVERIFY2(with_parameters.find("offload_parameters: host") != std::string::npos, with_parameters.c_str());
        const LoadResult parameters_again = load_scenario_text(with_parameters, "parameters.yaml");
        QVERIFY(parameters_again.ok());
        QVERIFY(parameters_again.scenario->value() == parameters);
        // The step on the host and the host's CPU memory bandwidth, written only when set.
        QVERIFY(written.find("optimizer_step_on") == std::string::npos);
        QVERIFY2(written.find("link_bandwidth: 32 GB/s, latency: 10 us}") != std::string::npos, written.c_str());
        Scenario cpu_adam = scenario;
        cpu_adam.parallelism.zero = 2;
        cpu_adam.parallelism.offload_gradients = OffloadTarget::host;
        cpu_adam.parallelism.optimizer_step_on = OptimizerStepPlace::host;
        cpu_adam.cluster.memory_system.host->memory_bandwidth_Bps = 409.6e9;
        const std::string with_cpu_adam = write_scenario_yaml(cpu_adam);
        QVERIFY2(with_cpu_adam.find("optimizer_step_on: host") != std::string::npos &&
                     with_cpu_adam.find("memory_bandwidth: 409.6 GB/s") != std::string::npos,
                 with_cpu_adam.c_str());
        const LoadResult cpu_adam_again = load_scenario_text(with_cpu_adam, "cpu-adam.yaml");
        QVERIFY(cpu_adam_again.ok());
        QVERIFY(cpu_adam_again.scenario->value() == cpu_adam);
    }

    void offloadNeedsItsTier() {
        Scenario scenario = load("offload-host.yaml");
        scenario.parallelism.offload_optimizer = OffloadTarget::pool;
        const Validation validation = validate(scenario);
        QVERIFY(!validation.ok());
        QCOMPARE(validation.diagnostics.front().path, std::string("parallelism.offload_optimizer"));
        QCOMPARE(validation.diagnostics.front().message,
                 std::string("offload_optimizer: pool needs the cluster's memory_system.pool (its capacity and "
                             "bandwidth); the cluster describes other tiers only"));
        scenario.cluster.memory_system = {};
        QVERIFY(validate(scenario).diagnostics.front().message.ends_with("the cluster describes no memory system"));
    }

    void hostAndNvme() {
        const Scenario scenario = seed_example();
        const MemorySystemSpec& memory = scenario.cluster.memory_system;
        // 64 MB over a 32 GB/s host link: 2 ms, + 10 µs.
        QVERIFY(near(host_transfer_s(*memory.host, 64 * MB), 2 * ms + 10e-6));
        // The node's 25 GB/s of NVMe shared by 16 GPUs: 1.5625 GB/s each, below the host link: 64 MB → 40.96 ms,
        // + 100 µs.
        QVERIFY(near(nvme_transfer_s(*memory.nvme, memory.host, 16, 64 * MB), 40.96 * ms + 100e-6));
        // Drives of 800 GB/s for 16 GPUs give 50 GB/s each, but the data passes the 32 GB/s host link: 2 ms.
        NvmeStorage fast = *memory.nvme;
        fast.bandwidth_Bps = 800e9;
        QVERIFY(near(nvme_transfer_s(fast, memory.host, 16, 64 * MB), 2 * ms + 100e-6));
        // Without host memory described, the drives' share alone: 50 GB/s.
        QVERIFY(near(nvme_transfer_s(fast, std::nullopt, 16, 64 * MB), 1.28 * ms + 100e-6));
        QCOMPARE(host_transfer_s(*memory.host, 0.0), 0.0);
    }
};

QTEST_APPLESS_MAIN(TestMemorySystem)
#include "test_memory_system.moc"
