// import/xml_limits.h — a linear pre-scan of XML text before TinyXML/urdfdom see it: TinyXML recurses once
// per nesting level (50 000 levels overflow the stack) and checks each attribute against all earlier ones
// (100 000 attributes take minutes), so both are bounded here, in one pass over the bytes.
#pragma once

#include <cstddef>
#include <string>

namespace varsim::urdf_import {

constexpr size_t kMaxXmlDepth = 256;            // a URDF needs 5 (robot, link, visual, geometry, mesh)
constexpr size_t kMaxXmlAttributes = 64;        // per element; URDF elements carry at most 6
constexpr size_t kMaxXmlElements = 2'000'000;   // well above kMaxUrdfFileBytes / the smallest element

// Throws BadInput "<source>:<line>:<col>: <element>: ...; allowed: at most N" when an element nests deeper
// than kMaxXmlDepth, carries more than kMaxXmlAttributes attributes, or the document has more than
// kMaxXmlElements elements. Malformed markup is left to the parser (which reports it with a place).
void checkXmlLimits(const std::string& xml, const std::string& source);

}  // namespace varsim::urdf_import
