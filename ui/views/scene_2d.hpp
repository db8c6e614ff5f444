#pragma once
// Turns a view's Layers into VTK actors: points, centroid and copy markers, line segments, shaded
// cells with thin borders, and text labels.
#include <vector>

#include <vtkPolyData.h>
#include <vtkSmartPointer.h>

#include "ui/views/view_layers.hpp"

class vtkActor;
class vtkRenderer;
class vtkTextActor;

namespace simjoin::ui {

// The VTK data of a view's layers. Built on the drawing's worker thread: building it for 100,000
// points and 40,000 cells on the GUI thread paused the window for up to 60 ms.
struct SceneData {
  vtkSmartPointer<vtkPolyData> cells, cell_borders, segments, points, marker_outline, markers, copy_outline, copies;
  vtkSmartPointer<vtkPolyData> coarse_points;  // every m-th point, drawn while the user pans or zooms
  std::vector<Label> labels;
};
SceneData build_scene_data(const Layers& layers);

class Scene2d {
 public:
  explicit Scene2d(vtkRenderer* renderer);
  ~Scene2d();
  Scene2d(const Scene2d&) = delete;
  Scene2d& operator=(const Scene2d&) = delete;

  // Replaces everything drawn with `data`.
  void show(const SceneData& data);
  void set_point_size(double pixels);
  // While the user pans or zooms, each frame draws the coarse points and no cell borders (level of
  // detail: the software OpenGL of a machine without a GPU then keeps up with the mouse).
  void set_interacting(bool interacting);

 private:
  void set_labels(const std::vector<Label>& labels);
  void clear_labels();
  void update_detail();

  vtkRenderer* renderer_;
  vtkActor* cells_;
  vtkActor* cell_borders_;
  vtkActor* segments_;
  vtkActor* points_;
  vtkActor* coarse_points_;
  vtkActor* marker_outline_;
  vtkActor* markers_;
  vtkActor* copy_outline_;
  vtkActor* copies_;
  std::vector<vtkTextActor*> labels_;
  bool interacting_ = false;
};

}  // namespace simjoin::ui
