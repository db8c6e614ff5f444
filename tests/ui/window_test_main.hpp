#pragma once
// The main() of a window-level test: VTK's OpenGL surface format set before the application exists,
// settings kept apart from the user's, and, for Dialogs::Unattended, errors and questions reported on
// stderr instead of in dialogs (as simjoin-studio does when run by a script). Tests of the dialogs
// themselves keep them: Dialogs::Shown.
#include <QApplication>
#include <QtTest>

#include "ui/views/vtk_view_widget.hpp"

namespace simjoin::ui::testing {
enum class Dialogs { Shown, Unattended };
}  // namespace simjoin::ui::testing

#define SIMJOIN_WINDOW_TEST_MAIN(TestClass, dialogs)                                       \
  int main(int argc, char** argv) {                                                        \
    simjoin::ui::VtkViewWidget::setDefaultSurfaceFormat();                                 \
    QApplication app(argc, argv);                                                          \
    QApplication::setOrganizationName("SimjoinTest");                                      \
    app.setProperty("unattended", (dialogs) == simjoin::ui::testing::Dialogs::Unattended); \
    TestClass test;                                                                        \
    return QTest::qExec(&test, argc, argv);                                                \
  }
