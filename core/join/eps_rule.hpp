#pragma once
// The one rule for a join's eps, which every way in applies: the options schema (simjoin,
// simjoin-sweep, simjoin-studio), run_engine (every engine), the window's eps box and the Python
// module (simjoin.join, simjoin.distributed). eps is finite and >= 0; eps = 0 joins exactly the
// duplicates (the pairs at distance 0, as SciPy's query_pairs(r=0) returns them). Negative, NaN
// and infinite values are refused, with the same words everywhere.
#include <cmath>
#include <string>
#include <string_view>

#include "core/base/error.hpp"

namespace simjoin {

// Why a value was refused, without the parameter's name ("--eps: " on the command lines, "eps: " in
// Python and for run_engine's callers).
inline constexpr std::string_view kEpsRule =
    "must be a finite number >= 0, e.g. 0.5, 2000 or 1e-9 (0: the exact duplicates only)";

inline bool eps_allowed(double eps) { return eps >= 0 && std::isfinite(eps); }

// "eps: must be ...": the message for a refused eps, the parameter named as its caller spells it.
inline std::string eps_refusal(std::string_view name = "eps") {
  return std::string(name) + ": " + std::string(kEpsRule);
}

// Throws Error(Usage, eps_refusal(name)) for an eps the rule refuses.
inline void check_eps(double eps, std::string_view name = "eps") {
  if (!eps_allowed(eps)) fail(ErrorKind::Usage, eps_refusal(name));
}

}  // namespace simjoin
