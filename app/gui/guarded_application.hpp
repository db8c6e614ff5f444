#pragma once
// simjoin-studio's application object, which turns an exception out of any slot into a message.
#include <QApplication>

#include "core/base/error.hpp"

namespace simjoin::studio {

// Every event passes here, so that an error a slot throws (data the window cannot show, an output it
// cannot write) is shown and the window kept, instead of ending the process through std::terminate.
// Unattended, it is printed, and --quit exits with the code `simjoin` gives for it.
class GuardedApplication : public QApplication {
 public:
  using QApplication::QApplication;
  int failure_code = 0;

  bool notify(QObject* receiver, QEvent* event) override;

 private:
  void report(const char* what, ErrorKind kind);
};

}  // namespace simjoin::studio
