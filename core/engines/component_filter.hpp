#pragma once
// The principal-components filter of gpu-bruteforce's long rows: the pairs within the search radius
// are found among the pairs of lifted points (the projections onto the top k principal components of a
// sample, and the residual's norm: core/numeric/lifted_bound.hpp), k + 1 dimensions in place of d, and
// only those are tested in all d. On data whose variance lies in few directions (real embeddings,
// descriptors) the lifted join lets through little more than the pairs themselves; on tight clusters far
// apart it lets through every pair of a cluster. A sample of the points decides k, or that the filter
// does not pay.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/base/run_control.hpp"
#include "core/join/engine.hpp"
#include "core/points/point_set.hpp"

namespace simjoin {

struct ComponentFilter {
  std::size_t k = 0, dims = 0;
  std::vector<double> centre;  // dims values: the sample's mean
  std::vector<double> basis;   // k x dims, row-major: the top k directions
  double error_factor = 0;     // kappa of lifted_bound.hpp for this basis
  float mean_residual = 0;     // the sample's mean residual norm: (0, ..., 0, it) is the lifted points' middle
  double candidate_share = 0;  // the share of the sample's pairs the lifted bound lets through
  std::size_t lifted_dims() const { return k + 1; }
  // What the filter does, for the run's notes.
  std::string note() const;
};

// Rows shorter than this are joined whole unless the caller asks for the filter (ComponentFilterMode::Always).
inline constexpr std::size_t kComponentFilterMinDims = 256;

// Whether choose_component_filter may choose a filter for rows of `dims` dimensions (where not, it
// returns none at once).
bool component_filter_considered(ComponentFilterMode mode, std::size_t dims);

// The filter for joining a against b (a itself where b is null) at `radius` (the frame's search radius),
// or none: where `mode` is Off; where rows are too short to halve (Always) or shorter than
// kComponentFilterMinDims (Auto); and, for Auto, where the join is too small for the sample's cost, or
// the sample predicts less than twice the speed. Throws Error(Cancelled) between the sample's steps
// (tens of milliseconds apart) once `control`, if given, is cancelled.
std::optional<ComponentFilter> choose_component_filter(const PointSet32& a, const PointSet32* b, double radius,
                                                       ComponentFilterMode mode, std::uint64_t seed,
                                                       const RunControl* control = nullptr);

}  // namespace simjoin
