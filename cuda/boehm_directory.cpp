#include "cuda/boehm_directory.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/pca.hpp"

namespace simjoin::gpu {

std::vector<float> rotate_points(const BoehmDirectory& directory, const PointSet32& points) {
  const std::size_t n = points.size(), d = directory.d;
  std::vector<float> out(n * d);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    const float* p = points.point(i);
    for (std::size_t c = 0; c < d; ++c) {
      const double* axis = directory.components.data() + c * d;
      double y = 0;
      for (std::size_t k = 0; k < d; ++k) y += axis[k] * (double(p[k]) - directory.mean[k]);
      out[i * d + c] = float(y);
    }
  }
  return out;
}

BoehmDirectory build_boehm_directory(const PointSet32& points, int levels, int fanout, const RunControl& control) {
  BoehmDirectory dir;
  const std::size_t n = points.size(), d = points.dims();
  dir.d = d;
  // fit_pca takes float64 points: the frame coordinates, widened exactly.
  const Pca pca = fit_pca(PointSet(n, d, Coordinates<double>(points.coords().begin(), points.coords().end())));
  dir.mean = pca.mean;
  dir.components = pca.components;
  control.throw_if_cancelled();
  const std::vector<float> rotated = rotate_points(dir, points);

  // Level by level: every group cut into `fanout` quantiles of the level's dimension. Selecting the
  // cuts (nth_element, halving) costs O(n log fanout) a level instead of a sort's O(n log n), and
  // between selections a cancel is seen. The last level also sorts each page, as a sort of its groups
  // would, so that consecutive queries (a block's) stay close.
  dir.order.resize(n);
  std::iota(dir.order.begin(), dir.order.end(), 0u);
  std::vector<std::size_t> bounds{0, n};
  const int depth = int(std::min<std::size_t>(std::size_t(levels), d));
  for (int level = 0; level < depth; ++level) {
    const auto less = [&](std::uint32_t x, std::uint32_t y) {
      return rotated[x * d + level] < rotated[y * d + level];
    };
    std::vector<std::size_t> next{0};
    for (std::size_t g = 0; g + 1 < bounds.size(); ++g) {
      const std::size_t size = bounds[g + 1] - bounds[g];
      const auto cut = [&](int f) { return dir.order.begin() + std::ptrdiff_t(bounds[g] + size * f / fanout); };
      // Places the cuts of quantiles f0 < f < f1, given those of f0 and f1.
      const auto select = [&](auto& self, int f0, int f1) -> void {
        if (f1 - f0 < 2) return;
        control.throw_if_cancelled();
        const int middle = (f0 + f1) / 2;
        std::nth_element(cut(f0), cut(middle), cut(f1), less);
        self(self, f0, middle);
        self(self, middle, f1);
      };
      select(select, 0, fanout);
      if (level + 1 == depth)
        for (int f = 0; f < fanout; ++f) {
          control.throw_if_cancelled();
          std::sort(cut(f), cut(f + 1), less);
        }
      for (int f = 1; f <= fanout; ++f) {
        const std::size_t position = bounds[g] + size * f / fanout;
        if (position > next.back()) next.push_back(position);
      }
    }
    bounds = std::move(next);
  }
  dir.page_begin.assign(bounds.begin(), bounds.end());

  dir.rotated.resize(n * d);
  float largest = 0;
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t k = 0; k < d; ++k) {
      dir.rotated[r * d + k] = rotated[std::size_t(dir.order[r]) * d + k];
      largest = std::max(largest, std::fabs(dir.rotated[r * d + k]));
    }
  // Rounding of the rotation in double and of the float32 store, with a wide margin.
  dir.rounding = largest * 1e-6f * float(1 + d / 64);
  const std::size_t pages = dir.page_begin.size() - 1;
  dir.page_low.assign(pages * d, std::numeric_limits<float>::max());
  dir.page_high.assign(pages * d, std::numeric_limits<float>::lowest());
  for (std::size_t p = 0; p < pages; ++p)
    for (std::size_t r = dir.page_begin[p]; r < dir.page_begin[p + 1]; ++r)
      for (std::size_t k = 0; k < d; ++k) {
        dir.page_low[p * d + k] = std::min(dir.page_low[p * d + k], dir.rotated[r * d + k]);
        dir.page_high[p * d + k] = std::max(dir.page_high[p * d + k], dir.rotated[r * d + k]);
      }
  return dir;
}

}  // namespace simjoin::gpu
