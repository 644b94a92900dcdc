// import/urdf_outline.h — the structural checks urdfdom does not make with a usable message, done on the
// raw XML (TinyXML, which urdfdom itself uses) before urdfdom parses it: well-formedness with line and
// column, unsupported joint types and <mimic>, loops, and what the import ignores (as notes).
#pragma once

#include <string>
#include <vector>

namespace varsim::urdf_import {

struct Outline {
  std::vector<std::string> jointOrder;  // joint names in document order (sibling order of the tree)
  std::vector<std::string> notes;       // ignored elements, one line each
};

// Throws BadInput "<source>[:line:col]: <element>: <reason>" on malformed XML, a root element other than
// <robot>, a floating/planar/unknown joint type, <mimic>, a link that is the child of two joints, or a
// cycle of joints (every link a child: no root).
Outline outlineUrdf(const std::string& xml, const std::string& source);

}  // namespace varsim::urdf_import
