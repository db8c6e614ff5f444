#pragma once
// Turns a view's Layers into VTK actors: points, centroid and copy markers, line segments, shaded
// cells with thin borders, and text labels.
#include <vector>

#include <vtkNew.h>

#include "ui/views/view_layers.hpp"

class vtkActor;
class vtkRenderer;
class vtkTextActor;

namespace simjoin::ui {

class Scene2d {
 public:
  explicit Scene2d(vtkRenderer* renderer);
  ~Scene2d();
  Scene2d(const Scene2d&) = delete;
  Scene2d& operator=(const Scene2d&) = delete;

  // Replaces everything drawn with `layers`.
  void show(const Layers& layers);
  void set_point_size(double pixels);

 private:
  void set_labels(const std::vector<Label>& labels);
  void clear_labels();

  vtkRenderer* renderer_;
  vtkActor* cells_;
  vtkActor* cell_borders_;
  vtkActor* segments_;
  vtkActor* points_;
  vtkActor* marker_outline_;
  vtkActor* markers_;
  vtkActor* copy_outline_;
  vtkActor* copies_;
  std::vector<vtkTextActor*> labels_;
};

}  // namespace simjoin::ui
