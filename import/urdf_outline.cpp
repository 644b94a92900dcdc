// import/urdf_outline.cpp — pre-parse checks of a URDF document (see urdf_outline.h). urdfdom accepts a
// <mimic> and a floating joint silently, reports a link with two parents as "two root links" and a loop
// as "no root link"; these checks name the element and the reason instead.
#include "import/urdf_outline.h"

#include <tinyxml.h>

#include <map>
#include <set>

#include "engine/sim/errors.h"

namespace varsim::urdf_import {

namespace {

std::string attr(const TiXmlElement* e, const char* name) {
  const char* v = e->Attribute(name);
  return v ? v : "";
}

std::string at(const std::string& source, const TiXmlNode* n) {
  return source + ":" + std::to_string(n->Row()) + ":" + std::to_string(n->Column());
}

std::string childLink(const TiXmlElement* joint, const char* which) {
  const TiXmlElement* e = joint->FirstChildElement(which);
  return e ? attr(e, "link") : "";
}

void checkJoint(const TiXmlElement* j, const std::string& source) {
  const std::string name = attr(j, "name"), type = attr(j, "type");
  const std::string where = at(source, j) + ": joint '" + name + "'";
  if (type == "floating" || type == "planar")
    throw BadInput(where + ": type '" + type +
                   "' is not supported (the tree has a fixed base and one variable per joint; supported: revolute, "
                   "continuous, prismatic, fixed)");
  if (type != "revolute" && type != "continuous" && type != "prismatic" && type != "fixed")
    throw BadInput(where + ": unknown joint type '" + type + "' (supported: revolute, continuous, prismatic, fixed)");
  if (const TiXmlElement* m = j->FirstChildElement("mimic"))
    throw BadInput(at(source, m) + ": joint '" + name + "': <mimic joint=\"" + attr(m, "joint") +
                   "\"> is not supported (a mimic joint is a constraint between two variables; the tree gives each "
                   "joint its own variable)");
}

}  // namespace

Outline outlineUrdf(const std::string& xml, const std::string& source) {
  TiXmlDocument doc;
  doc.Parse(xml.c_str());
  if (doc.Error())
    throw BadInput(source + ":" + std::to_string(doc.ErrorRow()) + ":" + std::to_string(doc.ErrorCol()) +
                   ": malformed XML: " + doc.ErrorDesc());
  const TiXmlElement* robot = doc.RootElement();
  if (!robot || std::string(robot->Value()) != "robot")
    throw BadInput(source + ": the root element is <" + std::string(robot ? robot->Value() : "") +
                   ">, a URDF file has <robot>");
  Outline out;
  std::set<std::string> links;
  std::map<std::string, std::string> parentJoint;  // child link -> joint
  for (const TiXmlElement* e = robot->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string tag = e->Value();
    if (tag == "link") {
      links.insert(attr(e, "name"));
      int collisions = 0;
      for (const TiXmlElement* c = e->FirstChildElement("collision"); c; c = c->NextSiblingElement("collision"))
        ++collisions;
      if (collisions)
        out.notes.push_back("link '" + attr(e, "name") + "': " + std::to_string(collisions) +
                            " <collision> element(s) ignored (no contact model)");
    } else if (tag == "joint") {
      checkJoint(e, source);
      const std::string name = attr(e, "name"), child = childLink(e, "child");
      out.jointOrder.push_back(name);
      auto [it, fresh] = parentJoint.emplace(child, name);
      if (!fresh)
        throw BadInput(at(source, e) + ": joint '" + name + "': link '" + child + "' is already the child of joint '" +
                       it->second + "' — a closed loop, not supported (a tree gives each link one parent joint)");
    } else if (tag != "material") {
      out.notes.push_back("<" + tag + (attr(e, "name").empty() ? "" : " name=\"" + attr(e, "name") + "\"") +
                          "> at line " + std::to_string(e->Row()) +
                          " ignored (only link, joint and material are read)");
    }
  }
  bool rootFound = links.empty();
  for (const auto& l : links) rootFound |= !parentJoint.count(l);
  if (!rootFound)
    throw BadInput(source +
                   ": every link is the child of a joint — the joints form a closed loop, not supported "
                   "(a tree needs one root link)");
  return out;
}

}  // namespace varsim::urdf_import
