#include "app/gui/guarded_application.hpp"

#include <QMessageBox>

#include <cstdio>
#include <exception>
#include <new>

namespace simjoin::studio {

bool GuardedApplication::notify(QObject* receiver, QEvent* event) {
  try {
    return QApplication::notify(receiver, event);
  } catch (const Error& error) {
    report(error.what(), error.kind());
  } catch (const std::bad_alloc&) {
    report("out of host memory", ErrorKind::OutOfMemory);
  } catch (const std::exception& error) {
    report(error.what(), ErrorKind::Internal);
  }
  return false;
}

void GuardedApplication::report(const char* what, ErrorKind kind) {
  if (!failure_code) failure_code = exit_code_for(kind);
  std::fprintf(stderr, "simjoin-studio: error: %s\n", what);
  if (!property("unattended").toBool()) QMessageBox::critical(activeWindow(), applicationName(), what);
}

}  // namespace simjoin::studio
