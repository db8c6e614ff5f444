#pragma once
// A Qt 6 widget that shows a VTK renderer. VTK's own Qt module is built for Qt 5 on this platform,
// so this bridge drives a vtkGenericOpenGLRenderWindow inside Qt's OpenGL context: VTK renders to
// its own framebuffer, which is then blitted into the widget's framebuffer.
#include <QOpenGLWidget>
#include <QPoint>
#include <QPointF>
#include <QRectF>
#include <QTimer>

#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkNew.h>
#include <vtkRenderer.h>

namespace simjoin::ui {

class VtkViewWidget : public QOpenGLWidget {
  Q_OBJECT

 public:
  explicit VtkViewWidget(QWidget* parent = nullptr);
  ~VtkViewWidget() override;

  vtkRenderer* renderer() const;
  vtkGenericOpenGLRenderWindow* renderWindow() const;

  // Widget position (logical pixels) to view coordinates on the z = 0 plane.
  QPointF toWorld(QPoint widget_pos) const;
  // Length of `pixels` logical pixels in view coordinates.
  double worldPerPixel() const;

  // Sets a 2-D camera that shows the renderer's visible props whole with a margin, at the widget's
  // aspect; the view stays fitted (refitted when resized) until the user pans or zooms.
  void resetCamera();
  bool fitted() const { return fitted_; }
  // The view coordinates the camera shows (x, y of its corners).
  QRectF visibleRegion() const;
  // Shows `region` whole (a zoom to a picked point's neighbourhood); the view is then not fitted.
  void zoomTo(const QRectF& region);

  // False where no OpenGL context can be made (the offscreen platform, no GLX): the views are then
  // drawn without VTK.
  static bool openGLUsable();
  // True where that OpenGL renders on the CPU (Mesa's llvmpipe under Xvfb or a virtual machine): the
  // views then hand it fewer points, so that a frame stays well within the window's 100 ms.
  static bool openGLInSoftware();
  // Centres the view on (x, y) and zooms in until `half_height` view units fill half its height (never
  // out beyond the whole data).
  void focusOn(double x, double y, double half_height);

  // The OpenGL format this widget needs; set as the default before the QApplication exists.
  static void setDefaultSurfaceFormat();

 signals:
  // A left click without dragging, in view coordinates and widget position.
  void clicked(QPointF world, QPoint widget_pos);
  // The user starts (true) or ends (false) panning or zooming: a drag, or a turn of the wheel and
  // 300 ms after it.
  void interactingChanged(bool interacting);

 protected:
  void initializeGL() override;
  void resizeGL(int w, int h) override;
  void resizeEvent(QResizeEvent* event) override;
  void paintGL() override;

  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void keyReleaseEvent(QKeyEvent* event) override;

 private:
  void onMakeCurrent(vtkObject*, unsigned long, void*);
  void onIsCurrent(vtkObject*, unsigned long, void* call_data);
  void onInteractorRender(vtkObject*, unsigned long, void*);
  // Passes the pointer position and modifiers to the interactor, then fires `vtk_event`.
  void forwardMouse(QMouseEvent* event, unsigned long vtk_event);
  QSize deviceSize() const;
  void setInteracting(bool interacting);

  vtkNew<vtkGenericOpenGLRenderWindow> window_;
  vtkNew<vtkRenderer> renderer_;
  vtkNew<vtkGenericRenderWindowInteractor> interactor_;
  QPoint press_pos_;
  bool dragged_ = false;
  bool gl_ready_ = false;
  bool fitted_ = true;
  bool interacting_ = false;
  QTimer* wheel_end_;
};

// `widget` rendered with its children, `gl` (one of them) drawn from its own framebuffer: grab()
// alone leaves an OpenGL child blank.
QImage grab_with_view(QWidget* widget, VtkViewWidget* gl);

}  // namespace simjoin::ui
