# Extra CPU engine sources.
target_sources(simjoin_core PRIVATE
  kmeans.cpp
  engines/cpu_nlj.cpp
  engines/epsilon_grid.cpp
  engines/grid_cost.cpp
  engines/grid_join.cpp
  engines/cpu_grid.cpp
  engines/cpu_kmeans.cpp
  engines/cpu_rtree.cpp
  engines/choosing_engine.cpp
  engines/cpu_auto.cpp
)
