#pragma once
// The Partitions and Replication views of KMEANS-JOIN (Korkmaz 2012, ch. 4): points in their
// partition's colours with numbered centroids, the copies replication made (a ringed marker in the
// receiving partition's colour), the bisectors and eps-bands (for d > 2 their traces in the view
// plane), a partition's own / received / sent points, and where the picked point was copied and why.
#include <vector>

#include "ui/views/view_layers.hpp"

namespace simjoin::ui {

// Each returns false, with a note, when there is no partition structure matching the points.
bool partition_layers(const ViewInput& in, Layers& out, std::vector<Rgb>& colors);
bool replication_layers(const ViewInput& in, Layers& out, std::vector<Rgb>& colors);

}  // namespace simjoin::ui
