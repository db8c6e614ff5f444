#pragma once
// One join of NumPy arrays, as simjoin.join runs it.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <vector>

namespace simjoin::python {

struct JoinRequest {
  double eps = 0;
  std::string engine = "auto";
  int k = 0;
  // "pairs", "count", or the neighbour graph with 1.0 ("connectivity") or distances ("distance") as data.
  std::string output = "pairs";
  bool include_self = false;  // the graph of a self-join: each point its own neighbour
  std::vector<int> devices;
  pybind11::object progress = pybind11::none();
};

// Returns (result, stats), stats being the run's RunStats and result: the pairs as an (m, 2) uint32
// array in (i, j) order; their number; or the neighbour graph (app/python/neighbor_graph.hpp) as
// NumPy arrays (data, indices, indptr).
pybind11::tuple join_arrays(const pybind11::array& x, const std::optional<pybind11::array>& y,
                            const JoinRequest& request);

}  // namespace simjoin::python
