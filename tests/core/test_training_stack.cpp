// Training stacks (training.stack; docs/model.md "Training stacks"): what each stack sets, that a behaviour written in
// the file wins, DeepSpeed's gradient overlap following the ZeRO stage, the writer leaving out what the stack sets
// (and keeping what differs), the form's change of stack keeping what was set apart, a located error for an unknown
// stack, and a stack simulating exactly as the same behaviours written out.

#include "scenario/training_stack.h"
#include "scenario_file/scenario_loader.h"
#include "scenario_file/scenario_writer.h"
#include "simulation/simulate.h"
#include "sweep/sweep_point.h"

#include "numeric_compare.h"

#include <QTest>

#include <map>
#include <string>
#include <utility>

using parasight::Attention;
using parasight::LoadResult;
using parasight::Scenario;
using parasight::StackBehaviours;
using parasight::TpOverlap;
using parasight::TrainingStack;
using parasight::Zero3Gather;

Q_DECLARE_METATYPE(parasight::TrainingStack)
Q_DECLARE_METATYPE(parasight::Attention)
Q_DECLARE_METATYPE(parasight::TpOverlap)

namespace {

// GPT-2 small cut to 4 layers on 8 GPUs: tp 2 (so tp_overlap matters), pp 2 (overlap_p2p), dp 2
// (overlap_grad_reduce); `training` and `parallelism` add keys to those sections.
std::string scenario_text(const std::string& training, const std::string& parallelism) {
    return "schema: 1\nname: stack\nmodel: {preset: gpt2-small, layers: 4}\n"
           "training: {global_batch: 16, micro_batch: 1" + training + "}\n"
           "cluster:\n  device: a100-80gb\n  topology:\n"
           "    - {kind: switch, size: 8, bandwidth: 300 GB/s, latency: 1 us}\n"
           "parallelism: {tp: 2, pp: 2, dp: 2, mapping: [tp, dp, pp]" + parallelism + "}\n";
}

Scenario loaded(const std::string& text) {
    const LoadResult result = parasight::load_scenario_text(text, "stack.yaml");
    if (!result.ok()) {
        qWarning("%s", result.diagnostics.empty() ? "?" : result.diagnostics.front().to_string().c_str());
        return {};
    }
    return result.scenario->value();
}

double iteration_s(const Scenario& scenario) {
    const auto simulation = parasight::simulate(scenario, parasight::SimulateOptions{});
    return simulation ? simulation->report.iteration_time_s : -1.0;
}

}  // namespace

class TestTrainingStack : public QObject {
    Q_OBJECT

private slots:
    void stackSetsItsBehaviours_data() {
        QTest::addColumn<QString>("stack");
        QTest::addColumn<Attention>("attention");
        QTest::addColumn<TpOverlap>("tp_overlap");
        QTest::addColumn<bool>("overlap_grad_reduce");
        QTest::addColumn<bool>("overlap_p2p");
        QTest::addColumn<bool>("p2p_rendezvous");
        // Without a stack, ParaSight's defaults.
        QTest::newRow("none") << QString() << Attention::fused << TpOverlap::none << true << true << false;
        QTest::newRow("megatron-lm-2021") << "megatron-lm-2021" << Attention::unfused << TpOverlap::none << false
                                          << false << false;
        QTest::newRow("megatron-core") << "megatron-core" << Attention::fused << TpOverlap::backward << true << true
                                       << false;
        QTest::newRow("nemo") << "nemo" << Attention::fused << TpOverlap::backward << true << true << false;
        // ZeRO stage 0 here: DeepSpeed's overlap_comm is off below ZeRO-3; its pipeline sends block and pair with
        // their receives.
        QTest::newRow("deepspeed") << "deepspeed" << Attention::fused << TpOverlap::none << false << false << true;
        QTest::newRow("fsdp") << "fsdp" << Attention::fused << TpOverlap::none << true << true << false;
    }

    void stackSetsItsBehaviours() {
        QFETCH(QString, stack);
        QFETCH(Attention, attention);
        QFETCH(TpOverlap, tp_overlap);
        QFETCH(bool, overlap_grad_reduce);
        QFETCH(bool, overlap_p2p);
        QFETCH(bool, p2p_rendezvous);
        const std::string key = stack.isEmpty() ? std::string() : ", stack: " + stack.toStdString();
        const Scenario scenario = loaded(scenario_text(key, ""));
        QCOMPARE(scenario.training.attention, attention);
        QCOMPARE(scenario.parallelism.tp_overlap, tp_overlap);
        QCOMPARE(scenario.parallelism.overlap_grad_reduce, overlap_grad_reduce);
        QCOMPARE(scenario.parallelism.overlap_p2p, overlap_p2p);
        QCOMPARE(scenario.parallelism.p2p_rendezvous, p2p_rendezvous);
    }

    void deepSpeedRendezvousRefusesOtherSchedules() {
        // DeepSpeed's pipeline engine runs 1F1B's order only; its rendezvous under the interleaved schedule would
        // deadlock, so the stack's setting is refused there with what to write, at the schedule's value (line 9, the
        // parallelism section).
        const std::string text =
            scenario_text(", stack: deepspeed", ", schedule: interleaved, virtual_stages: 2");
        const LoadResult refused = parasight::load_scenario_text(text, "stack.yaml");
        QVERIFY(!refused.ok());
        const std::string message = refused.diagnostics.front().to_string();
        QVERIFY2(message.find("stack.yaml:9:59:") == 0, message.c_str());
        QVERIFY2(message.find("the interleaved schedule would deadlock on it") != std::string::npos, message.c_str());
        QVERIFY2(message.find("write p2p_rendezvous: false") != std::string::npos, message.c_str());
        std::string allowed = text;
        allowed.replace(allowed.find("virtual_stages: 2"), 17, "virtual_stages: 2, p2p_rendezvous: false");
        QVERIFY(parasight::load_scenario_text(allowed, "stack.yaml").ok());
        // Written with stack none, it is refused the same way.
        QVERIFY(!parasight::load_scenario_text(
                     scenario_text("", ", schedule: interleaved, virtual_stages: 2, p2p_rendezvous: true"),
                     "stack.yaml")
                     .ok());
    }

    void writtenBehaviourWins() {
        // The 2021 stack with fused attention and overlapped gradients written out: those two as written, the other
        // two the stack's.
        const Scenario scenario = loaded(scenario_text(", stack: megatron-lm-2021, attention: fused",
                                                       ", overlap_grad_reduce: true"));
        QCOMPARE(scenario.training.attention, Attention::fused);
        QVERIFY(scenario.parallelism.overlap_grad_reduce);
        QCOMPARE(scenario.parallelism.tp_overlap, TpOverlap::none);
        QVERIFY(!scenario.parallelism.overlap_p2p);
    }

    void deepSpeedOverlapsUnderZero3() {
        // overlap_comm defaults to true only for ZeRO-3 (DeepSpeed's zero/config.py); ZeRO-3 fetches per submodule.
        const Scenario zero1 = loaded(scenario_text(", stack: deepspeed", ", zero: 1"));
        QVERIFY(!zero1.parallelism.overlap_grad_reduce);
        const std::string zero3_text = "schema: 1\nname: z3\nmodel: {preset: gpt2-small, layers: 4}\n"
                                       "training: {global_batch: 16, micro_batch: 1, stack: deepspeed}\n"
                                       "cluster:\n  device: a100-80gb\n  topology:\n"
                                       "    - {kind: switch, size: 8, bandwidth: 300 GB/s, latency: 1 us}\n"
                                       "parallelism: {dp: 8, zero: 3}\n";
        const Scenario zero3 = loaded(zero3_text);
        QVERIFY(zero3.parallelism.overlap_grad_reduce);
        QVERIFY(!zero3.parallelism.zero3_gather);  // not written: the stack's, read through scenario_behaviours
        QCOMPARE(parasight::scenario_behaviours(zero3).zero3_gather, Zero3Gather::module);
        // The same run with FSDP gathers a layer at a time: more, smaller gathers for DeepSpeed, so a different time.
        std::string fsdp_text = zero3_text;
        fsdp_text.replace(fsdp_text.find("deepspeed"), 9, "fsdp");
        const Scenario fsdp = loaded(fsdp_text);
        QCOMPARE(parasight::scenario_behaviours(fsdp).zero3_gather, Zero3Gather::layer);
        std::string module_text = fsdp_text;
        module_text.replace(module_text.find("zero: 3"), 7, "zero: 3, zero3_gather: module");
        module_text.replace(module_text.find("stack: fsdp"), 11, "stack: fsdp, eager_kernels: false");
        // FSDP with DeepSpeed's gather and fused kernels written out simulates as DeepSpeed (both overlap gradients
        // under ZeRO-3).
        QCOMPARE(iteration_s(zero3), iteration_s(loaded(module_text)));
        QVERIFY(iteration_s(zero3) != iteration_s(fsdp));
    }

    void deepSpeedBf16OptimizerAllReducesAtZero1() {
        // bf16 at ZeRO-1 under DeepSpeed runs its BF16 optimizer, which all-reduces the fp32 gradients in full
        // (pipe/engine.py, _bf16_reduce_grads) where ZeRO-1 otherwise reduce-scatters them; the updated weights are
        // all-gathered after the step either way. The stack sets it only at ZeRO-1 in bf16; written, it wins.
        const Scenario deepspeed = loaded(scenario_text(", stack: deepspeed, fp32_gradients: true", ", zero: 1"));
        QVERIFY(!deepspeed.parallelism.zero1_all_reduce);  // not written: the stack's, read through scenario_behaviours
        QVERIFY(parasight::scenario_behaviours(deepspeed).zero1_all_reduce);
        QVERIFY(!parasight::scenario_behaviours(loaded(scenario_text(", stack: deepspeed, dtype: fp16", ", zero: 1")))
                     .zero1_all_reduce);
        QVERIFY(!parasight::scenario_behaviours(loaded(scenario_text(", stack: deepspeed", ", zero: 2")))
                     .zero1_all_reduce);
        QVERIFY(!parasight::scenario_behaviours(loaded(scenario_text(", stack: megatron-core", ", zero: 1")))
                     .zero1_all_reduce);
        const Scenario reduce_scatter =
            loaded(scenario_text(", stack: deepspeed, fp32_gradients: true", ", zero: 1, zero1_all_reduce: false"));
        QVERIFY(!parasight::scenario_behaviours(reduce_scatter).zero1_all_reduce);

        // The same gradients, 4 bytes each (fp32_gradients), reduced once after the last micro-batch (DeepSpeed reduces
        // after backward): an all-reduce of them, or a reduce-scatter; the parameter all-gather follows both. On the
        // dp group of 2 a ring all-reduce moves 2 · (2 − 1)/2 = 1 times the bytes over the link where the
        // reduce-scatter moves 1/2: the all-reduce takes longer, and so does the iteration.
        const auto labelled = [](const Scenario& scenario) {
            std::map<std::string, std::pair<int, double>> found;  // label: (count, bytes) on device 0
            const parasight::Validation validated = parasight::validate(scenario);
            if (!validated.ok()) return found;
            const auto simulation = parasight::simulate_graph(*validated.scenario, parasight::SimulateOptions{});
            if (!simulation) return found;
            for (const parasight::Task& task : simulation->graph.tasks) {
                if (task.device != 0 || task.kind != parasight::TaskKind::dp_comm) continue;
                auto& [count, bytes] = found[simulation->graph.labels[static_cast<std::size_t>(task.label)]];
                ++count;
                bytes += task.bytes;
            }
            return found;
        };
        const auto all_reduced = labelled(deepspeed);
        const auto scattered = labelled(reduce_scatter);
        QCOMPARE(all_reduced.count("dp reduce-scatter"), std::size_t{0});
        QCOMPARE(scattered.count("dp all-reduce"), std::size_t{0});
        QCOMPARE(all_reduced.at("dp all-reduce").first, 1);
        QCOMPARE(scattered.at("dp reduce-scatter").first, 1);
        QVERIFY(all_reduced.at("dp all-reduce").second > 0.0);
        QCOMPARE_EQ(all_reduced.at("dp all-reduce").second, scattered.at("dp reduce-scatter").second);
        QCOMPARE_EQ(all_reduced.at("dp parameter all-gather").second, scattered.at("dp parameter all-gather").second);
        QVERIFY(iteration_s(deepspeed) > iteration_s(reduce_scatter));

        // Written where it means nothing, it is refused at its value: ZeRO-2 shards the gradients (line 9, column 62).
        const LoadResult refused = parasight::load_scenario_text(
            scenario_text(", stack: deepspeed", ", zero: 2, zero1_all_reduce: true"), "stack.yaml");
        QVERIFY(!refused.ok());
        const std::string message = refused.diagnostics.front().to_string();
        QVERIFY2(message.find("stack.yaml:9:") == 0, message.c_str());
        QVERIFY2(message.find("zero1_all_reduce says how ZeRO-1 reduces the gradients; zero is 2, which shards them") !=
                     std::string::npos,
                 message.c_str());
    }

    void writerLeavesOutWhatTheStackSets() {
        const Scenario scenario = loaded(scenario_text(", stack: megatron-lm-2021, attention: fused", ""));
        const std::string written = parasight::write_scenario_yaml(scenario);
        QVERIFY2(written.find("stack: megatron-lm-2021") != std::string::npos, written.c_str());
        QVERIFY2(written.find("attention: fused") != std::string::npos, written.c_str());  // differs: kept
        QVERIFY2(written.find("tp_overlap") == std::string::npos, written.c_str());        // the stack's: left out
        QVERIFY2(written.find("overlap_p2p") == std::string::npos, written.c_str());
        QVERIFY(loaded(written) == scenario);
        // Stack none writes every behaviour and no stack, as before stacks (sweeps stored from such files keep their
        // identity).
        const std::string plain = parasight::write_scenario_yaml(loaded(scenario_text("", "")));
        QVERIFY2(plain.find("stack: ") == std::string::npos, plain.c_str());
        QVERIFY2(plain.find("tp_overlap: none") != std::string::npos, plain.c_str());
    }

    void sweepPointFollowsTheStack() {
        // A sweep over training.stack on a written scenario without a stack (which writes every behaviour): the
        // behaviours at ParaSight's defaults take the point's stack's; tp_overlap, set apart to backward, stays.
        const std::string base_yaml =
            parasight::write_scenario_yaml(loaded(scenario_text("", ", tp_overlap: backward")));
        QVERIFY(!parasight::missing_path(base_yaml, "training.stack"));
        const parasight::AxisValue axis{"training.stack", "megatron-lm-2021"};
        const LoadResult point = parasight::scenario_at(base_yaml, std::span(&axis, 1), "point", {});
        QVERIFY(point.ok());
        const Scenario& scenario = point.scenario->value();
        QCOMPARE(scenario.training.stack, TrainingStack::megatron_lm_2021);
        QCOMPARE(scenario.training.attention, Attention::unfused);
        QVERIFY(!scenario.parallelism.overlap_grad_reduce);
        QVERIFY(!scenario.parallelism.overlap_p2p);
        QCOMPARE(scenario.parallelism.tp_overlap, TpOverlap::backward);
    }

    void changeKeepsWhatWasSetApart() {
        // Megatron-Core with blocking pipeline sends written out; changed to the 2021 stack: attention, tp_overlap and
        // overlap_grad_reduce had Megatron-Core's values and take 2021's; overlap_p2p was set apart and stays.
        Scenario scenario = loaded(scenario_text(", stack: megatron-core", ", overlap_p2p: false"));
        parasight::change_stack(scenario, TrainingStack::megatron_lm_2021);
        QCOMPARE(scenario.training.stack, TrainingStack::megatron_lm_2021);
        QCOMPARE(scenario.training.attention, Attention::unfused);
        QCOMPARE(scenario.parallelism.tp_overlap, TpOverlap::none);
        QVERIFY(!scenario.parallelism.overlap_grad_reduce);
        QVERIFY(!scenario.parallelism.overlap_p2p);
        // Back to none: every behaviour still at 2021's value takes ParaSight's default.
        parasight::change_stack(scenario, TrainingStack::none);
        QVERIFY(scenario_behaviours(scenario) == parasight::stack_behaviours(TrainingStack::none, 0, parasight::Dtype::bf16));
    }

    void fsdpRunsEagerKernels() {
        // PyTorch FSDP's stacks run their models eagerly (torchtitan: compile = false, its RMSNorm written out);
        // Megatron's and DeepSpeed's fuse. A file's own value wins, and without a stack the key is written only when
        // set.
        QVERIFY(loaded(scenario_text(", stack: fsdp", "")).training.eager_kernels);
        QVERIFY(!loaded(scenario_text(", stack: megatron-core", "")).training.eager_kernels);
        QVERIFY(!loaded(scenario_text(", stack: deepspeed", "")).training.eager_kernels);
        QVERIFY(!loaded(scenario_text(", stack: fsdp, eager_kernels: false", "")).training.eager_kernels);
        QVERIFY(loaded(scenario_text(", eager_kernels: true", "")).training.eager_kernels);
        const std::string plain = parasight::write_scenario_yaml(loaded(scenario_text("", "")));
        QVERIFY2(plain.find("eager_kernels") == std::string::npos, plain.c_str());
        const std::string fsdp = parasight::write_scenario_yaml(loaded(scenario_text(", stack: fsdp", "")));
        QVERIFY2(fsdp.find("eager_kernels") == std::string::npos, fsdp.c_str());
        const std::string apart =
            parasight::write_scenario_yaml(loaded(scenario_text(", stack: fsdp, eager_kernels: false", "")));
        QVERIFY2(apart.find("eager_kernels: false") != std::string::npos, apart.c_str());
        // Eager kernels take longer than fused ones: the same run on the fsdp stack with them written off is faster.
        QVERIFY(iteration_s(loaded(scenario_text(", stack: fsdp, eager_kernels: false", ""))) <
                iteration_s(loaded(scenario_text(", stack: fsdp", ""))));
    }

    void megatronKeepsFp32GradientsWithBf16() {
        // Megatron-LM forces fp32 gradient accumulation and all-reduce with bf16, not with fp16
        // (megatron/training/arguments.py); the other stacks keep gradients at the weights' width.
        QVERIFY(loaded(scenario_text(", stack: megatron-core", "")).training.fp32_gradients);
        QVERIFY(loaded(scenario_text(", stack: megatron-lm-2021", "")).training.fp32_gradients);
        QVERIFY(!loaded(scenario_text(", stack: megatron-core, dtype: fp16", "")).training.fp32_gradients);
        QVERIFY(!loaded(scenario_text(", stack: fsdp", "")).training.fp32_gradients);
        QVERIFY(!loaded(scenario_text(", stack: megatron-core, fp32_gradients: false", "")).training.fp32_gradients);
        // Without a stack the key is written only when set, so files and stored sweeps read as before it.
        const std::string plain = parasight::write_scenario_yaml(loaded(scenario_text("", "")));
        QVERIFY2(plain.find("fp32_gradients") == std::string::npos, plain.c_str());
        const Scenario set = loaded(scenario_text(", fp32_gradients: true", ""));
        QVERIFY(loaded(parasight::write_scenario_yaml(set)) == set);
    }

    void fp32GradientsDoubleTheGradientsAndTheirReduction() {
        // GPT-2 small cut to 4 layers, dp 8 alone: the gradients kept (in memory at the peak) and the bytes the
        // data-parallel reduction moves double from 2 to 4 bytes a parameter.
        const std::string text = "schema: 1\nname: grads\nmodel: {preset: gpt2-small, layers: 4}\n"
                                 "training: {global_batch: 16, micro_batch: 2}\n"
                                 "cluster:\n  device: a100-80gb\n  topology:\n"
                                 "    - {kind: switch, size: 8, bandwidth: 300 GB/s, latency: 1 us}\n"
                                 "parallelism: {dp: 8}\n";
        std::string fp32_text = text;
        fp32_text.replace(fp32_text.find("micro_batch: 2"), 14, "micro_batch: 2, fp32_gradients: true");
        const auto bf16 = parasight::simulate(loaded(text), parasight::SimulateOptions{});
        const auto fp32 = parasight::simulate(loaded(fp32_text), parasight::SimulateOptions{});
        QVERIFY(bf16 && fp32);
        const auto gradients = [](const parasight::Simulation& run) {
            return run.report.memory_by_category_bytes[static_cast<std::size_t>(parasight::MemoryCategory::gradients)];
        };
        QVERIFY(gradients(bf16.value()) > 0.0);
        QCOMPARE_EQ(gradients(fp32.value()), 2.0 * gradients(bf16.value()));
        QVERIFY(fp32->report.iteration_time_s > bf16->report.iteration_time_s);
    }

    void unknownStackIsLocated() {
        const LoadResult result =
            parasight::load_scenario_text(scenario_text(", stack: deepspeeed", ""), "stack.yaml");
        QVERIFY(!result.ok());
        const std::string message = result.diagnostics.front().to_string();
        QVERIFY2(message.find("stack.yaml:4:") == 0, message.c_str());
        QVERIFY2(message.find("did you mean 'deepspeed'") != std::string::npos, message.c_str());
    }

    void stackSimulatesAsItsBehavioursWrittenOut() {
        // megatron-lm-2021 on the tp 2 · pp 2 · dp 2 run is the same run as its five behaviours written out, and a
        // different one from ParaSight's defaults (unfused attention alone changes the layer's time).
        const Scenario stack = loaded(scenario_text(", stack: megatron-lm-2021", ""));
        const Scenario written = loaded(scenario_text(", attention: unfused, fp32_gradients: true",
                                                      ", tp_overlap: none, overlap_grad_reduce: false, "
                                                      "overlap_p2p: false"));
        QCOMPARE(iteration_s(stack), iteration_s(written));
        QVERIFY(iteration_s(stack) != iteration_s(loaded(scenario_text("", ""))));
    }
};

QTEST_GUILESS_MAIN(TestTrainingStack)
#include "test_training_stack.moc"
