#pragma once
// A kernel's (or several kernels') time on a device, and how much of it the device's own memory bounds: the
// roofline's excess of streaming its bytes over computing its FLOPs, plus memory-bound kernels run after it. That part
// is ASTRA-sim 2.0's local memory access time (§III-C's local memory model: tensor size over memory bandwidth) inside
// the kernels that pay it; the breakdown counts it as exposed local memory.

namespace parasight {

struct KernelTime {
    double total_s = 0.0;
    double memory_bound_s = 0.0;  // of total_s

    KernelTime& operator+=(const KernelTime& other) noexcept {
        total_s += other.total_s;
        memory_bound_s += other.memory_bound_s;
        return *this;
    }
    [[nodiscard]] KernelTime operator*(double share) const noexcept { return {total_s * share, memory_bound_s * share}; }
    [[nodiscard]] KernelTime operator-(const KernelTime& other) const noexcept {
        return {total_s - other.total_s, memory_bound_s - other.memory_bound_s};
    }
    // The share of total_s that memory bounds; 0 for no time.
    [[nodiscard]] double memory_bound_share() const noexcept { return total_s > 0.0 ? memory_bound_s / total_s : 0.0; }
};

}  // namespace parasight
