#pragma once
// Simulated devices' values summed per pipeline stage, each weighted by the devices it stands for (its symmetry
// class). A stage whose devices all have the same value takes value × weight — and its mean that value — exactly, so
// that simulating one device per class and simulating every device give bit-identical figures on a homogeneous
// cluster (the report's totals and the views' per-stage rows alike).

namespace parasight {

class StageSum {
public:
    void add(double value, double weight) noexcept {
        if (weight_ == 0.0) {
            first_ = value;
        } else if (value != first_) {
            uniform_ = false;
        }
        weight_ += weight;
        sum_ += value * weight;
    }
    [[nodiscard]] double total() const noexcept { return uniform_ ? first_ * weight_ : sum_; }
    [[nodiscard]] double mean() const noexcept {
        if (weight_ == 0.0) return 0.0;
        return uniform_ ? first_ : sum_ / weight_;
    }
    [[nodiscard]] double weight() const noexcept { return weight_; }

private:
    double first_ = 0.0;
    double weight_ = 0.0;
    double sum_ = 0.0;
    bool uniform_ = true;
};

}  // namespace parasight
