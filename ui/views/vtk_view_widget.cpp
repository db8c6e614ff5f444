#include "ui/views/vtk_view_widget.hpp"

#include <algorithm>

#include <QGuiApplication>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>
#include <QPainter>
#include <QSurfaceFormat>
#include <QWheelEvent>

#include <vtkCamera.h>
#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkInteractorStyleRubberBand2D.h>
#include <vtkOpenGLFramebufferObject.h>
#include <vtkOpenGLState.h>
#include <vtkRenderer.h>

namespace simjoin::ui {

void VtkViewWidget::setDefaultSurfaceFormat() {
  QSurfaceFormat format;
  format.setRenderableType(QSurfaceFormat::OpenGL);
  format.setVersion(3, 2);
  format.setProfile(QSurfaceFormat::CoreProfile);
  format.setDepthBufferSize(24);
  format.setStencilBufferSize(8);
  format.setAlphaBufferSize(8);
  format.setSamples(0);
  QSurfaceFormat::setDefaultFormat(format);
}

VtkViewWidget::VtkViewWidget(QWidget* parent) : QOpenGLWidget(parent), wheel_end_(new QTimer(this)) {
  setFocusPolicy(Qt::StrongFocus);
  wheel_end_->setSingleShot(true);
  wheel_end_->setInterval(300);
  connect(wheel_end_, &QTimer::timeout, this, [this] { setInteracting(false); });
  setMouseTracking(false);
  setMinimumSize(200, 200);

  window_->AddRenderer(renderer_);
  // Qt owns the context; VTK asks us to make it current and whether it is.
  window_->SetOwnContext(false);
  window_->SetFrameBlitModeToNoBlit();
  window_->SetMultiSamples(0);
  window_->AddObserver(vtkCommand::WindowMakeCurrentEvent, this, &VtkViewWidget::onMakeCurrent);
  window_->AddObserver(vtkCommand::WindowIsCurrentEvent, this, &VtkViewWidget::onIsCurrent);

  interactor_->SetRenderWindow(window_);
  // Renders the interactor asks for become Qt repaints, so VTK renders only inside paintGL.
  interactor_->EnableRenderOff();
  interactor_->AddObserver(vtkCommand::RenderEvent, this, &VtkViewWidget::onInteractorRender);
  vtkNew<vtkInteractorStyleRubberBand2D> style;
  interactor_->SetInteractorStyle(style);
  interactor_->Initialize();

  renderer_->SetBackground(1, 1, 1);
  renderer_->GetActiveCamera()->ParallelProjectionOn();
}

VtkViewWidget::~VtkViewWidget() {
  // VTK frees its OpenGL objects, which needs the context current.
  if (gl_ready_) {
    makeCurrent();
    window_->Finalize();
    doneCurrent();
  }
}

vtkRenderer* VtkViewWidget::renderer() const { return renderer_; }
vtkGenericOpenGLRenderWindow* VtkViewWidget::renderWindow() const { return window_; }

QSize VtkViewWidget::deviceSize() const { return QSize(width(), height()) * devicePixelRatioF(); }

void VtkViewWidget::onMakeCurrent(vtkObject*, unsigned long, void*) { makeCurrent(); }

void VtkViewWidget::onIsCurrent(vtkObject*, unsigned long, void* call_data) {
  *static_cast<bool*>(call_data) = QOpenGLContext::currentContext() == context();
}

void VtkViewWidget::onInteractorRender(vtkObject*, unsigned long, void*) { update(); }

void VtkViewWidget::initializeGL() {
  window_->SetReadyForRendering(true);
  // Loads VTK's GL entry points and checks the context from the one Qt made current.
  window_->OpenGLInitContext();
  gl_ready_ = true;
}

void VtkViewWidget::resizeEvent(QResizeEvent* event) {
  QOpenGLWidget::resizeEvent(event);
  if (fitted_) resetCamera();
}

void VtkViewWidget::resizeGL(int, int) {
  const QSize size = deviceSize();
  interactor_->UpdateSize(size.width(), size.height());
  window_->SetSize(size.width(), size.height());
  window_->SetDPI(static_cast<int>(72 * devicePixelRatioF()));
}

void VtkViewWidget::paintGL() {
  const QSize size = deviceSize();
  if (window_->GetSize()[0] != size.width() || window_->GetSize()[1] != size.height()) resizeGL(width(), height());

  // Qt changed the GL state behind VTK's cache: re-read it, and restore Qt's state afterwards.
  vtkOpenGLState* state = window_->GetState();
  state->Reset();
  state->Push();
  window_->Render();
  state->Pop();

  // VTK's finished frame lives in its display framebuffer; copy it into the widget's framebuffer.
  auto* gl = context()->extraFunctions();
  gl->glBindFramebuffer(GL_DRAW_FRAMEBUFFER, defaultFramebufferObject());
  const GLenum draw_buffer = GL_COLOR_ATTACHMENT0;
  gl->glDrawBuffers(1, &draw_buffer);
  gl->glDisable(GL_SCISSOR_TEST);
  const int* rendered = window_->GetRenderFramebuffer()->GetLastSize();
  window_->BlitDisplayFramebuffer(0, 0, 0, rendered[0], rendered[1], 0, 0, size.width(), size.height(),
                                  GL_COLOR_BUFFER_BIT, GL_NEAREST);
  // An alpha below 1 would let the window behind show through under some compositors.
  gl->glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_TRUE);
  gl->glClearColor(0, 0, 0, 1);
  gl->glClear(GL_COLOR_BUFFER_BIT);
  gl->glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  gl->glBindFramebuffer(GL_FRAMEBUFFER, defaultFramebufferObject());
}

QPointF VtkViewWidget::toWorld(QPoint widget_pos) const {
  const double dpr = devicePixelRatioF();
  renderer_->SetDisplayPoint(widget_pos.x() * dpr, (height() - widget_pos.y()) * dpr, 0);
  renderer_->DisplayToWorld();
  const double* world = renderer_->GetWorldPoint();
  const double w = world[3] != 0 ? world[3] : 1.0;
  return {world[0] / w, world[1] / w};
}

double VtkViewWidget::worldPerPixel() const {
  // Parallel scale is half the viewport height in view units.
  return 2.0 * renderer_->GetActiveCamera()->GetParallelScale() / std::max(1, height());
}

void VtkViewWidget::resetCamera() {
  double bounds[6];
  renderer_->ComputeVisiblePropBounds(bounds);
  renderer_->ResetCamera(bounds);
  if (bounds[0] <= bounds[1]) {
    // Half the height that shows the bounds whole at this aspect (ResetCamera alone fits a sphere
    // to the height, which cuts the sides off a wide map in a narrow view).
    const double aspect = double(std::max(1, width())) / std::max(1, height());
    const double half_height = std::max((bounds[3] - bounds[2]) / 2, (bounds[1] - bounds[0]) / 2 / aspect);
    if (half_height > 0) renderer_->GetActiveCamera()->SetParallelScale(half_height * 1.05);
  }
  renderer_->ResetCameraClippingRange();
  fitted_ = true;
  update();
}

QRectF VtkViewWidget::visibleRegion() const {
  vtkCamera* camera = renderer_->GetActiveCamera();
  const double* focal = camera->GetFocalPoint();
  const double half_height = camera->GetParallelScale();
  const double half_width = half_height * double(std::max(1, width())) / std::max(1, height());
  return QRectF(focal[0] - half_width, focal[1] - half_height, 2 * half_width, 2 * half_height);
}

void VtkViewWidget::zoomTo(const QRectF& region) {
  vtkCamera* camera = renderer_->GetActiveCamera();
  const double* focal = camera->GetFocalPoint();
  const double* position = camera->GetPosition();
  const QPointF centre = region.center();
  camera->SetPosition(centre.x(), centre.y(), position[2] - focal[2]);  // looking down z at the plane z = 0
  camera->SetFocalPoint(centre.x(), centre.y(), 0.0);
  const double aspect = double(std::max(1, width())) / std::max(1, height());
  camera->SetParallelScale(std::max(region.height() / 2, region.width() / 2 / aspect));
  renderer_->ResetCameraClippingRange();
  fitted_ = false;
  update();
}

namespace {
// What this display's OpenGL is, found once: whether a context can be made, and whether it renders
// on the CPU (its GL_RENDERER names a software rasteriser).
struct OpenGLProbe {
  bool usable = false, software = false;
};

const OpenGLProbe& opengl_probe() {
  static const OpenGLProbe probe = [] {
    OpenGLProbe found;
    const QString platform = QGuiApplication::platformName();
    if (platform == "offscreen" || platform == "minimal") return found;
    QOpenGLContext context;
    found.usable = context.create();
    QOffscreenSurface surface;
    surface.create();
    if (!found.usable || !context.makeCurrent(&surface)) return found;
    const auto* name = reinterpret_cast<const char*>(context.functions()->glGetString(GL_RENDERER));
    const QString renderer = name ? QString::fromLatin1(name).toLower() : QString();
    context.doneCurrent();
    found.software = renderer.contains("llvmpipe") || renderer.contains("softpipe") || renderer.contains("software") ||
                     renderer.contains("swiftshader");
    return found;
  }();
  return probe;
}
}  // namespace

bool VtkViewWidget::openGLUsable() { return opengl_probe().usable; }

bool VtkViewWidget::openGLInSoftware() { return opengl_probe().software; }

void VtkViewWidget::focusOn(double x, double y, double half_height) {
  resetCamera();
  vtkCamera* camera = renderer_->GetActiveCamera();
  double focal[3], position[3];
  camera->GetFocalPoint(focal);
  camera->GetPosition(position);
  camera->SetFocalPoint(x, y, focal[2]);
  camera->SetPosition(x, y, position[2]);
  if (half_height > 0) camera->SetParallelScale(std::min(camera->GetParallelScale(), half_height));
  renderer_->ResetCameraClippingRange();
  fitted_ = false;
  update();
}

void VtkViewWidget::setInteracting(bool interacting) {
  if (interacting == interacting_) return;
  interacting_ = interacting;
  emit interactingChanged(interacting);
}

void VtkViewWidget::forwardMouse(QMouseEvent* event, unsigned long vtk_event) {
  const double dpr = devicePixelRatioF();
  const QPointF pos = event->position();
  interactor_->SetEventInformationFlipY(static_cast<int>(pos.x() * dpr), static_cast<int>(pos.y() * dpr),
                                        event->modifiers() & Qt::ControlModifier ? 1 : 0,
                                        event->modifiers() & Qt::ShiftModifier ? 1 : 0);
  interactor_->SetAltKey(event->modifiers() & Qt::AltModifier ? 1 : 0);
  interactor_->InvokeEvent(vtk_event, event);
}

void VtkViewWidget::mousePressEvent(QMouseEvent* event) {
  press_pos_ = event->position().toPoint();
  dragged_ = false;
  switch (event->button()) {
    case Qt::LeftButton:
      forwardMouse(event, vtkCommand::LeftButtonPressEvent);
      break;
    case Qt::MiddleButton:
      forwardMouse(event, vtkCommand::MiddleButtonPressEvent);
      break;
    case Qt::RightButton:
      forwardMouse(event, vtkCommand::RightButtonPressEvent);
      break;
    default:
      break;
  }
}

void VtkViewWidget::mouseMoveEvent(QMouseEvent* event) {
  // A drag pans or zooms: the view no longer follows the data's fit.
  if (event->buttons() != Qt::NoButton && (event->position().toPoint() - press_pos_).manhattanLength() > 3) {
    dragged_ = true, fitted_ = false;
    setInteracting(true);
  }
  forwardMouse(event, vtkCommand::MouseMoveEvent);
}

void VtkViewWidget::mouseReleaseEvent(QMouseEvent* event) {
  switch (event->button()) {
    case Qt::LeftButton:
      forwardMouse(event, vtkCommand::LeftButtonReleaseEvent);
      break;
    case Qt::MiddleButton:
      forwardMouse(event, vtkCommand::MiddleButtonReleaseEvent);
      break;
    case Qt::RightButton:
      forwardMouse(event, vtkCommand::RightButtonReleaseEvent);
      break;
    default:
      break;
  }
  if (event->buttons() == Qt::NoButton && !wheel_end_->isActive()) setInteracting(false);
  if (event->button() == Qt::LeftButton && !dragged_) {
    const QPoint pos = event->position().toPoint();
    emit clicked(toWorld(pos), pos);
  }
}

void VtkViewWidget::wheelEvent(QWheelEvent* event) {
  fitted_ = false;
  setInteracting(true);
  wheel_end_->start();
  const double dpr = devicePixelRatioF();
  const QPointF pos = event->position();
  interactor_->SetEventInformationFlipY(static_cast<int>(pos.x() * dpr), static_cast<int>(pos.y() * dpr));
  const int delta = event->angleDelta().y();
  if (delta > 0) interactor_->InvokeEvent(vtkCommand::MouseWheelForwardEvent, event);
  if (delta < 0) interactor_->InvokeEvent(vtkCommand::MouseWheelBackwardEvent, event);
  event->accept();
}

void VtkViewWidget::keyPressEvent(QKeyEvent* event) {
  const QByteArray text = event->text().toLatin1();
  const char key = text.isEmpty() ? 0 : text[0];
  interactor_->SetKeyEventInformation(event->modifiers() & Qt::ControlModifier ? 1 : 0,
                                      event->modifiers() & Qt::ShiftModifier ? 1 : 0, key, 1, text.constData());
  interactor_->InvokeEvent(vtkCommand::KeyPressEvent, event);
  interactor_->InvokeEvent(vtkCommand::CharEvent, event);
}

void VtkViewWidget::keyReleaseEvent(QKeyEvent* event) { interactor_->InvokeEvent(vtkCommand::KeyReleaseEvent, event); }

QImage grab_with_view(QWidget* widget, VtkViewWidget* gl) {
  QImage image = widget->grab().toImage();
  if (gl->isVisible()) {
    QPainter painter(&image);
    painter.drawImage(QRect(gl->mapTo(widget, QPoint(0, 0)), gl->size()), gl->grabFramebuffer());
  }
  return image;
}

}  // namespace simjoin::ui
