#include "ui/views/scene_2d.hpp"

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCoordinate.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkUnsignedCharArray.h>

namespace simjoin::ui {

namespace {

// Layers sit at slightly different depths so that points draw over lines over cells.
constexpr double kCellsZ = -0.2, kBordersZ = -0.15, kSegmentsZ = -0.1, kPointsZ = 0.0, kCopiesZ = 0.05, kMarkersZ = 0.1;
// Labels beyond this many (k in the hundreds) would cover the view.
constexpr std::size_t kMaxLabels = 64;
// Points drawn at most while the user pans or zooms.
constexpr std::size_t kMaxCoarsePoints = 25'000;

vtkActor* make_actor(vtkRenderer* renderer, bool point_colors = false) {
  auto actor = vtkActor::New();
  vtkNew<vtkPolyDataMapper> mapper;
  // Points carry their colours per point (one vertex each): no per-cell colour texture to build.
  if (point_colors)
    mapper->SetScalarModeToUsePointData();
  else
    mapper->SetScalarModeToUseCellData();
  mapper->SetColorModeToDirectScalars();
  actor->SetMapper(mapper);
  actor->GetProperty()->LightingOff();
  renderer->AddActor(actor);
  return actor;
}

vtkSmartPointer<vtkUnsignedCharArray> colors(const std::vector<std::uint8_t>& values, int components) {
  auto array = vtkSmartPointer<vtkUnsignedCharArray>::New();
  array->SetNumberOfComponents(components);
  array->SetNumberOfTuples(static_cast<vtkIdType>(values.size() / components));
  std::copy(values.begin(), values.end(), array->GetPointer(0));
  return array;
}

// One vertex per (x, y), coloured per point.
vtkSmartPointer<vtkPolyData> vertices(const std::vector<float>& xy, const std::vector<std::uint8_t>& rgb, double z) {
  vtkNew<vtkPoints> points;
  vtkNew<vtkCellArray> verts;
  const vtkIdType n = static_cast<vtkIdType>(xy.size() / 2);
  points->SetNumberOfPoints(n);
  float* xyz = static_cast<float*>(points->GetVoidPointer(0));
  for (vtkIdType i = 0; i < n; ++i) {
    xyz[3 * i] = xy[2 * i];
    xyz[3 * i + 1] = xy[2 * i + 1];
    xyz[3 * i + 2] = static_cast<float>(z);
  }
  verts->AllocateExact(n, n);
  for (vtkIdType i = 0; i < n; ++i) verts->InsertNextCell(1, &i);
  auto poly = vtkSmartPointer<vtkPolyData>::New();
  poly->SetPoints(points);
  poly->SetVerts(verts);
  poly->GetPointData()->SetScalars(colors(rgb, 3));
  return poly;
}

vtkSmartPointer<vtkPolyData> segments(const std::vector<float>& seg, const std::vector<std::uint8_t>& rgb, double z) {
  vtkNew<vtkPoints> points;
  vtkNew<vtkCellArray> lines;
  const vtkIdType m = static_cast<vtkIdType>(seg.size() / 4);
  points->Allocate(2 * m);
  lines->AllocateExact(m, 2 * m);
  for (vtkIdType s = 0; s < m; ++s) {
    const vtkIdType ids[2] = {points->InsertNextPoint(seg[4 * s], seg[4 * s + 1], z),
                              points->InsertNextPoint(seg[4 * s + 2], seg[4 * s + 3], z)};
    lines->InsertNextCell(2, ids);
  }
  auto poly = vtkSmartPointer<vtkPolyData>::New();
  poly->SetPoints(points);
  poly->SetLines(lines);
  poly->GetCellData()->SetScalars(colors(rgb, 3));
  return poly;
}

// Each cell's colour repeated for its 4 corners: colours per point, not per cell, spare VTK a colour
// texture and a cell map per drawing (the Grid view's first frame was the window's longest pause).
vtkSmartPointer<vtkUnsignedCharArray> corner_colors(const std::vector<std::uint8_t>& rgb, int shade_percent) {
  std::vector<std::uint8_t> corners;
  corners.reserve(rgb.size() * 4);
  for (std::size_t r = 0; r + 2 < rgb.size(); r += 3)
    for (int corner = 0; corner < 4; ++corner)
      for (std::size_t c = 0; c < 3; ++c)
        corners.push_back(static_cast<std::uint8_t>(rgb[r + c] * shade_percent / 100));
  return colors(corners, 3);
}

// The rectangles' corners at depth z, 4 points per rectangle.
vtkSmartPointer<vtkPoints> corners(const std::vector<float>& rects, double z) {
  auto points = vtkSmartPointer<vtkPoints>::New();
  const vtkIdType m = static_cast<vtkIdType>(rects.size() / 4);
  points->SetNumberOfPoints(4 * m);
  float* xyz = static_cast<float*>(points->GetVoidPointer(0));
  for (vtkIdType r = 0; r < m; ++r) {
    const float x0 = rects[4 * r], y0 = rects[4 * r + 1], x1 = rects[4 * r + 2], y1 = rects[4 * r + 3];
    const float corner[4][2] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    for (int c = 0; c < 4; ++c) {
      float* p = xyz + 3 * (4 * r + c);
      p[0] = corner[c][0], p[1] = corner[c][1], p[2] = static_cast<float>(z);
    }
  }
  return points;
}

// Shaded cells: a quad per rectangle.
vtkSmartPointer<vtkPolyData> rectangles(const std::vector<float>& rects, const std::vector<std::uint8_t>& rgb) {
  vtkNew<vtkCellArray> quads;
  const vtkIdType m = static_cast<vtkIdType>(rects.size() / 4);
  quads->AllocateExact(m, 4 * m);
  for (vtkIdType r = 0; r < m; ++r) {
    const vtkIdType ids[4] = {4 * r, 4 * r + 1, 4 * r + 2, 4 * r + 3};
    quads->InsertNextCell(4, ids);
  }
  auto poly = vtkSmartPointer<vtkPolyData>::New();
  poly->SetPoints(corners(rects, kCellsZ));
  poly->SetPolys(quads);
  poly->GetPointData()->SetScalars(corner_colors(rgb, 100));
  return poly;
}

// The cells' outlines in a darker shade of each cell: one pixel wide at any zoom, so that cells
// smaller than a pixel still show, and neighbouring cells of one shade stay apart. A closed line
// through each cell's 4 corners.
vtkSmartPointer<vtkPolyData> borders(const std::vector<float>& rects, const std::vector<std::uint8_t>& rgb) {
  vtkNew<vtkCellArray> outlines;
  const vtkIdType m = static_cast<vtkIdType>(rects.size() / 4);
  outlines->AllocateExact(m, 5 * m);
  for (vtkIdType r = 0; r < m; ++r) {
    const vtkIdType ids[5] = {4 * r, 4 * r + 1, 4 * r + 2, 4 * r + 3, 4 * r};
    outlines->InsertNextCell(5, ids);
  }
  auto poly = vtkSmartPointer<vtkPolyData>::New();
  poly->SetPoints(corners(rects, kBordersZ));
  poly->SetLines(outlines);
  poly->GetPointData()->SetScalars(corner_colors(rgb, 75));
  return poly;
}

}  // namespace

Scene2d::Scene2d(vtkRenderer* renderer)
    : renderer_(renderer),
      cells_(make_actor(renderer, true)),
      cell_borders_(make_actor(renderer, true)),
      segments_(make_actor(renderer)),
      points_(make_actor(renderer, true)),
      coarse_points_(make_actor(renderer, true)),
      marker_outline_(make_actor(renderer, true)),
      markers_(make_actor(renderer, true)),
      copy_outline_(make_actor(renderer, true)),
      copies_(make_actor(renderer, true)) {
  segments_->GetProperty()->SetLineWidth(1.5);
  cell_borders_->GetProperty()->SetLineWidth(1);
  copy_outline_->GetProperty()->SetPointSize(9);
  copies_->GetProperty()->SetPointSize(6);
  set_point_size(4);
  marker_outline_->GetProperty()->SetPointSize(15);
  markers_->GetProperty()->SetPointSize(10);
}

Scene2d::~Scene2d() {
  for (vtkActor* actor :
       {cells_, cell_borders_, segments_, points_, coarse_points_, marker_outline_, markers_, copy_outline_, copies_}) {
    renderer_->RemoveActor(actor);
    actor->Delete();
  }
  clear_labels();
}

void Scene2d::clear_labels() {
  for (vtkTextActor* label : labels_) {
    renderer_->RemoveActor(label);
    label->Delete();
  }
  labels_.clear();
}

void Scene2d::set_labels(const std::vector<Label>& labels) {
  clear_labels();
  for (std::size_t l = 0; l < labels.size() && l < kMaxLabels; ++l) {
    auto* label = vtkTextActor::New();
    label->SetInput(labels[l].text.c_str());
    // Beside the centroid's ring, not over it: a few pixels off its world position.
    vtkNew<vtkCoordinate> anchor;
    anchor->SetCoordinateSystemToWorld();
    anchor->SetValue(labels[l].x, labels[l].y, kMarkersZ + 0.1);
    label->GetPositionCoordinate()->SetCoordinateSystemToDisplay();
    label->GetPositionCoordinate()->SetReferenceCoordinate(anchor);
    // Clear of the 15-pixel ring (a square in VTK: its corner reaches 7.5 px along each axis).
    label->GetPositionCoordinate()->SetValue(11, 9);
    label->GetTextProperty()->SetFontSize(15);
    label->GetTextProperty()->SetBold(true);
    label->GetTextProperty()->SetColor(0, 0, 0);
    label->GetTextProperty()->SetJustificationToLeft();
    label->GetTextProperty()->SetVerticalJustificationToBottom();
    label->SetTextScaleModeToNone();
    renderer_->AddActor(label);
    labels_.push_back(label);
  }
}

void Scene2d::set_point_size(double pixels) {
  points_->GetProperty()->SetPointSize(pixels);
  coarse_points_->GetProperty()->SetPointSize(pixels);
}

void Scene2d::set_interacting(bool interacting) {
  interacting_ = interacting;
  update_detail();
}

void Scene2d::update_detail() {
  const auto has_cells = [](vtkActor* actor) {
    vtkDataSet* input = actor->GetMapper()->GetInput();
    return input && input->GetNumberOfCells() > 0;
  };
  points_->SetVisibility(!interacting_ && has_cells(points_));
  coarse_points_->SetVisibility(interacting_ && has_cells(coarse_points_));
  cell_borders_->SetVisibility(!interacting_ && has_cells(cell_borders_));
}

SceneData build_scene_data(const Layers& layers) {
  SceneData data;
  data.cells = rectangles(layers.rects, layers.rect_rgb);
  data.cell_borders = borders(layers.rects, layers.rect_rgb);
  data.segments = segments(layers.segments, layers.segment_rgb, kSegmentsZ);
  data.points = vertices(layers.xy, layers.rgb, kPointsZ);
  const std::size_t n = layers.xy.size() / 2, step = (n + kMaxCoarsePoints - 1) / kMaxCoarsePoints;
  std::vector<float> coarse_xy;
  std::vector<std::uint8_t> coarse_rgb;
  for (std::size_t i = 0; i < n; i += std::max<std::size_t>(step, 1)) {
    coarse_xy.insert(coarse_xy.end(), {layers.xy[2 * i], layers.xy[2 * i + 1]});
    coarse_rgb.insert(coarse_rgb.end(), layers.rgb.begin() + 3 * i, layers.rgb.begin() + 3 * i + 3);
  }
  data.coarse_points = vertices(coarse_xy, coarse_rgb, kPointsZ);
  // Centroids: a black ring (larger point below) around a dot in the partition's colour.
  data.marker_outline = vertices(layers.marker_xy, std::vector<std::uint8_t>(layers.marker_rgb.size(), 0), kMarkersZ);
  data.markers = vertices(layers.marker_xy, layers.marker_rgb, kMarkersZ + 0.05);
  // Copies: a smaller black ring around a dot in the receiving partition's colour.
  data.copy_outline = vertices(layers.copy_xy, std::vector<std::uint8_t>(layers.copy_rgb.size(), 0), kCopiesZ);
  data.copies = vertices(layers.copy_xy, layers.copy_rgb, kCopiesZ + 0.02);
  data.labels = layers.labels;
  return data;
}

void Scene2d::show(const SceneData& data) {
  const std::pair<vtkActor*, vtkPolyData*> parts[] = {{cells_, data.cells},
                                                      {cell_borders_, data.cell_borders},
                                                      {segments_, data.segments},
                                                      {points_, data.points},
                                                      {marker_outline_, data.marker_outline},
                                                      {markers_, data.markers},
                                                      {copy_outline_, data.copy_outline},
                                                      {copies_, data.copies},
                                                      {coarse_points_, data.coarse_points}};
  for (const auto& [actor, poly] : parts) {
    vtkPolyDataMapper::SafeDownCast(actor->GetMapper())->SetInputData(poly);
    actor->SetVisibility(poly && poly->GetNumberOfCells() > 0);
  }
  update_detail();
  set_labels(data.labels);
}

}  // namespace simjoin::ui
