#pragma once

// DINO's kNN evaluation settings: the defaults of eval knn, the kNN monitor and the benchmarks.
// A header of its own: the settings' declarations need them, not LibTorch.
namespace kiln::eval {

inline constexpr int kKnnNeighbours = 20;
inline constexpr double kKnnTemperature = 0.07;

} // namespace kiln::eval
