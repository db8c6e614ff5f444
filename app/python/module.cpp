// simjoin._simjoin: the engines for NumPy arrays. The package's Python layer (app/python/simjoin)
// builds the public API on it: argument checks, SciPy matrices, the last run's statistics.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "app/python/engines.hpp"
#include "app/python/errors.hpp"
#include "app/python/join.hpp"
#include "app/python/partition_plan.hpp"
#include "core/join/eps_rule.hpp"
#include "core/join/run_stats.hpp"

namespace py = pybind11;
using namespace simjoin;

namespace {
py::str stats_repr(const RunStats& stats) {
  return py::str("Stats(engine={!r}, n={}, n_b={}, d={}, eps={!r}, pairs={}, seconds_total={:.6f})")
      .format(stats.engine, stats.n, stats.n_b, stats.d, stats.eps, stats.pairs, stats.seconds_total);
}
}  // namespace

PYBIND11_MODULE(_simjoin, module) {
  python::register_error_translation();
  python::hold_engines();

  py::class_<RunStats>(module, "Stats", "What a join reported: sizes, seconds per phase, work, the engine's notes")
      // Writable for the Python layer, which names the engine that ran and times the whole call.
      .def_readwrite("engine", &RunStats::engine, "the engine that ran (what auto chose)")
      .def_readonly("device", &RunStats::device)
      .def_readonly("n", &RunStats::n, "points in X")
      .def_readonly("n_b", &RunStats::n_b, "points in Y; 0 for a self-join")
      .def_readonly("d", &RunStats::d)
      .def_readonly("eps", &RunStats::eps)
      .def_readonly("k", &RunStats::k, "partitions, where the engine has them")
      .def_readonly("pairs", &RunStats::pairs)
      .def_readwrite("seconds_total", &RunStats::seconds_total, "the call's whole time, result included")
      .def_property_readonly(
          "phases",
          [](const RunStats& stats) {
            py::dict phases;
            for (const PhaseTime& phase : stats.phases) phases[py::str(phase.name)] = phase.seconds;
            return phases;
          },
          "seconds per phase, in the order they ran")
      .def_readonly("replicated_points", &RunStats::replicated_points, "copies made by KMEANS-JOIN replication")
      .def_readonly("compared_pairs", &RunStats::compared_pairs, "distance tests performed")
      .def_readonly("estimated_tests", &RunStats::estimated_tests,
                    "distance tests the engine's index expected before the join (0: none)")
      .def_property_readonly("compared_ratio", &RunStats::compared_ratio, "compared_pairs over candidate pairs")
      .def_readonly("extra_bytes", &RunStats::extra_bytes, "engine memory beyond input and output")
      .def_readonly("notes", &RunStats::notes, "choices the engine made")
      .def("__repr__", &stats_repr);

  module.def("engines", &python::engine_descriptions);
  module.def(
      "join",
      [](const py::array& x, double eps, const std::optional<py::array>& y, const std::string& engine, int k,
         const std::string& output, bool include_self, const std::vector<int>& devices, const py::object& progress) {
        return python::join_arrays(x, y, {eps, engine, k, output, include_self, devices, progress});
      },
      py::arg("x"), py::arg("eps"), py::arg("y"), py::arg("engine"), py::arg("k"), py::arg("output"),
      py::arg("include_self"), py::arg("devices"), py::arg("progress"));
  // The one rule for eps (core/join/eps_rule.hpp), which the package applies before anything runs.
  module.attr("EPS_RULE") = std::string(kEpsRule);
  module.def(
      "eps_refusal", [](const std::string& name) { return eps_refusal(name); }, py::arg("name"));
  module.def(
      "check_eps", [](double eps, const std::string& name) { check_eps(eps, name); }, py::arg("eps"), py::arg("name"));
  module.def("fitting_rows", &python::fitting_rows, py::arg("k"));
  module.def("fit_centroids", &python::fit_centroids, py::arg("sample"), py::arg("k"), py::arg("seed"), py::arg("eps"),
             py::arg("low"), py::arg("high"));
  module.def("partition_plan", &python::partition_plan, py::arg("points"), py::arg("centroids"), py::arg("eps"),
             py::arg("low"), py::arg("high"), py::arg("name"));
}
