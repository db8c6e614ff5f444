#pragma once
// Images to files by extension: .png as is, .svg and .pdf with the image embedded at its size (the
// 2-D view is rendered by OpenGL, so a raster in any format). Works off the GUI thread. Throws
// Error(Usage) for another extension and Error(BadInput) for a path that cannot be written.
#include <QImage>

#include <string>

namespace simjoin::ui {

void save_image(const QImage& image, const std::string& path);

}  // namespace simjoin::ui
