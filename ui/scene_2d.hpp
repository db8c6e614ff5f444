#pragma once
// Turns a view's Layers into VTK actors: points, centroid markers, line segments, shaded cells.
#include <vtkNew.h>

#include "ui/view_layers.hpp"

class vtkActor;
class vtkRenderer;

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
  vtkRenderer* renderer_;
  vtkActor* cells_;
  vtkActor* segments_;
  vtkActor* points_;
  vtkActor* marker_outline_;
  vtkActor* markers_;
};

}  // namespace simjoin::ui
