#pragma once
// OpenMP's idle threads, left to libgomp's default, spin before they sleep. A join runs parallel
// regions from more than one thread (the frame on the run's thread, the pair delivery on the sink's),
// and on the lent GPU hosts, virtual machines, those spinning teams slowed the next run's host phases
// in about half the runs: W2's float32 frame took 1.1-1.8 ms or 14-30 ms and W1's upload 2.3 or
// 16.8 ms, at random. With OMP_WAIT_POLICY=passive the idle threads sleep at once and every run is
// the fast kind (docs/benchmarks.md, "Where the spread came from").
namespace simjoin {

// Where the user has not chosen OMP_WAIT_POLICY, sets it to passive and starts this program again
// (libgomp reads it only as it loads); returns only where it was set already or the restart failed.
// The first call of main, before any thread starts.
void prefer_sleeping_openmp_threads(char** argv);

}  // namespace simjoin
