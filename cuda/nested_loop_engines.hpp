#pragma once
// Factories of the nested-loop and k-means GPU engines, registered by cuda/nested_loop_engines.cpp.
#include <memory>

#include "core/engine.hpp"

namespace simjoin::gpu {

std::unique_ptr<Engine> make_nlj_engine();         // gpu-nlj
std::unique_ptr<Engine> make_inlj_engine();        // gpu-inlj
std::unique_ptr<Engine> make_bruteforce_engine();  // gpu-bruteforce
std::unique_ptr<Engine> make_kmeans_engine(bool replicate);  // gpu-kmeans, gpu-kmeans-approx

}  // namespace simjoin::gpu
