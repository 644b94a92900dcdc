// import/urdf_import.cpp — URDF (urdfdom's ModelInterface) to a seed 003 tree. Per joint, from the parent
// link's frame: the joint origin (xyz + rpy) as a constant transform; then the motion — an axis along
// +x, +y or +z uses the primitive RotX/Y/Z (TransX/Y/Z) directly; any other unit axis a uses
// R_a · RotZ(q) · R_aᵀ (R_a a constant rotation taking e_z to a), which is the rotation by q about a
// (translation by q along a), so q is the URDF joint position in both cases. Each <inertial> becomes a
// mass on a constant frame at its origin (the centre of mass, axes by its rpy), since a tree mass sits at
// its frame's origin with the inertia about it (tree.h).
#include "import/urdf_import.h"

#include <console_bridge/console.h>
#include <urdf_parser/urdf_parser.h>

#include <Eigen/Dense>
#include <Eigen/Geometry>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "engine/sim/errors.h"
#include "engine/sim/file_read.h"
#include "engine/tree/tree_lagrangian.h"
#include "import/mesh_bounds.h"
#include "import/urdf_outline.h"
#include "import/xml_limits.h"

namespace varsim::urdf_import {

namespace {

using Eigen::Matrix3d;
using Eigen::Matrix4d;
using Eigen::Vector3d;

// urdfdom reports through console_bridge; this collects its errors for the BadInput message (and keeps
// its debug chatter off stderr) while it parses, then restores the previous handler.
class ParserMessages : public console_bridge::OutputHandler {
 public:
  ParserMessages() : previous_(console_bridge::getOutputHandler()) { console_bridge::useOutputHandler(this); }
  ~ParserMessages() override { console_bridge::useOutputHandler(previous_); }
  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR) errors_ += (errors_.empty() ? "" : "; ") + text;
  }
  const std::string& errors() const { return errors_; }

 private:
  console_bridge::OutputHandler* previous_;
  std::string errors_;
};

Matrix4d poseMatrix(const urdf::Pose& p) {
  Matrix4d g = Matrix4d::Identity();
  const auto& r = p.rotation;
  g.topLeftCorner<3, 3>() = Eigen::Quaterniond(r.w, r.x, r.y, r.z).normalized().toRotationMatrix();
  g.topRightCorner<3, 1>() = Vector3d(p.position.x, p.position.y, p.position.z);
  return g;
}

Matrix4d rotationOnly(const Matrix3d& R) {
  Matrix4d g = Matrix4d::Identity();
  g.topLeftCorner<3, 3>() = R;
  return g;
}

// A rotation R with R e_z = a (unit): the shortest rotation about e_z × a; a = -e_z turns by pi about x.
Matrix3d alignZ(const Vector3d& a) {
  if (a.z() < -1 + 1e-12) return Eigen::AngleAxisd(M_PI, Vector3d::UnitX()).toRotationMatrix();
  return Eigen::Quaterniond::FromTwoVectors(Vector3d::UnitZ(), a).toRotationMatrix();
}

std::string text(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

class Builder {
 public:
  Builder(Model& out, const std::string& source, const std::string& baseDir, const Outline& outline)
      : out_(out), source_(source), baseDir_(baseDir) {
    for (size_t i = 0; i < outline.jointOrder.size(); ++i) order_[outline.jointOrder[i]] = int(i);
  }

  // Depth first from the root; siblings in document order, so dof indices follow the file.
  void link(const urdf::Link& l, int frame) {
    out_.links.push_back(l.name), out_.linkFrame.push_back(frame);
    if (l.inertial) inertial(l, *l.inertial, frame);
    for (const auto& v : l.visual_array)
      if (v && v->geometry) visual(l, *v, frame);
    std::vector<urdf::JointSharedPtr> children = l.child_joints;
    std::sort(children.begin(), children.end(),
              [&](const auto& a, const auto& b) { return order_[a->name] < order_[b->name]; });
    for (const auto& j : children) {
      const urdf::LinkConstSharedPtr child = childOf(l, *j);
      link(*child, joint(*j, frame));
    }
  }

 private:
  urdf::LinkConstSharedPtr childOf(const urdf::Link& l, const urdf::Joint& j) const {
    for (const auto& c : l.child_links)
      if (c->name == j.child_link_name) return c;
    throw BadInput(source_ + ": joint '" + j.name + "': child link '" + j.child_link_name + "' not found");
  }

  // Returns the frame at the child link's origin.
  int joint(const urdf::Joint& j, int parent) {
    tree::Tree& t = out_.tree;
    int f = parent;
    const Matrix4d origin = poseMatrix(j.parent_to_joint_origin_transform);
    if (origin != Matrix4d::Identity()) f = t.addFixed(f, origin);
    if (j.type == urdf::Joint::FIXED) return f;
    Vector3d a(j.axis.x, j.axis.y, j.axis.z);
    const double n = a.norm();
    if (!(n > 1e-9) || !a.allFinite())
      throw BadInput(source_ + ": joint '" + j.name + "': <axis xyz=\"" + text(a.x()) + " " + text(a.y()) + " " +
                     text(a.z()) + "\"> is not a direction (zero length or not finite)");
    a /= n;
    const bool prismatic = j.type == urdf::Joint::PRISMATIC;
    record(j, prismatic);
    for (int k = 0; k < 3; ++k) {
      if ((a - Vector3d::Unit(k)).norm() > 1e-15) continue;
      const tree::Joint prim[2][3] = {{tree::Joint::RotX, tree::Joint::RotY, tree::Joint::RotZ},
                                      {tree::Joint::TransX, tree::Joint::TransY, tree::Joint::TransZ}};
      return t.addFrame(f, prim[prismatic][k], tree::Drive::Dynamic);
    }
    const Matrix3d R = alignZ(a);
    const int aligned = t.addFixed(f, rotationOnly(R));
    const int moved = t.addFrame(aligned, prismatic ? tree::Joint::TransZ : tree::Joint::RotZ, tree::Drive::Dynamic);
    return t.addFixed(moved, rotationOnly(R.transpose()));
  }

  void record(const urdf::Joint& j, bool prismatic) {
    JointInfo info;
    info.name = j.name, info.prismatic = prismatic;
    if (j.type != urdf::Joint::CONTINUOUS && j.limits)
      info.limited = true, info.lower = j.limits->lower, info.upper = j.limits->upper;
    if (info.limited && !(info.lower <= info.upper))
      throw BadInput(source_ + ": joint '" + j.name + "': <limit lower=\"" + text(info.lower) + "\" upper=\"" +
                     text(info.upper) + "\"> needs lower <= upper");
    if (j.dynamics) {
      info.damping = j.dynamics->damping;
      if (!(info.damping >= 0) || !std::isfinite(info.damping))
        throw BadInput(source_ + ": joint '" + j.name + "': <dynamics damping=\"" + text(info.damping) +
                       "\"> must be finite and >= 0");
      if (j.dynamics->friction != 0)
        out_.notes.push_back("joint '" + j.name + "': <dynamics friction> ignored (no Coulomb friction model)");
    }
    if (j.limits && (j.limits->effort != 0 || j.limits->velocity != 0))
      out_.notes.push_back("joint '" + j.name + "': effort and velocity limits not enforced (no actuators)");
    if (j.safety) out_.notes.push_back("joint '" + j.name + "': <safety_controller> ignored");
    out_.joints.push_back(info);
  }

  void inertial(const urdf::Link& l, const urdf::Inertial& in, int frame) {
    Matrix3d I;
    I << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
    if (in.mass == 0 && I.isZero(0)) return;
    const Matrix4d origin = poseMatrix(in.origin);
    const int com = origin == Matrix4d::Identity() ? frame : out_.tree.addFixed(frame, origin);
    try {
      out_.tree.addMass(com, in.mass, I);
    } catch (const BadInput& e) {
      throw BadInput(source_ + ": link '" + l.name + "': <inertial> mass " + text(in.mass) + " kg, inertia (ixx " +
                     text(in.ixx) + ", iyy " + text(in.iyy) + ", izz " + text(in.izz) + ", ixy " + text(in.ixy) +
                     ", ixz " + text(in.ixz) + ", iyz " + text(in.iyz) + "): " + e.what());
    }
  }

  void visual(const urdf::Link& l, const urdf::Visual& v, int frame) {
    Visual out;
    out.frame = frame, out.link = l.name, out.origin = poseMatrix(v.origin);
    if (v.material && v.material->texture_filename.empty())
      out.rgba = {v.material->color.r, v.material->color.g, v.material->color.b, v.material->color.a};
    const urdf::Geometry& g = *v.geometry;
    if (g.type == urdf::Geometry::BOX) {
      const auto& d = static_cast<const urdf::Box&>(g).dim;
      out.kind = Visual::Kind::Box, out.size = {d.x, d.y, d.z};
    } else if (g.type == urdf::Geometry::CYLINDER) {
      const auto& c = static_cast<const urdf::Cylinder&>(g);
      out.kind = Visual::Kind::Cylinder, out.size = {c.radius, c.radius, c.length};
    } else if (g.type == urdf::Geometry::SPHERE) {
      const double r = static_cast<const urdf::Sphere&>(g).radius;
      out.kind = Visual::Kind::Sphere, out.size = {r, r, r};
    } else if (!meshBox(l, static_cast<const urdf::Mesh&>(g), out)) {
      return;
    }
    for (double x : out.size)
      if (!(x >= 0) || !std::isfinite(x))
        throw BadInput(source_ + ": link '" + l.name + "': <visual> geometry size " + text(x) +
                       " (sizes must be finite and >= 0)");
    out_.visuals.push_back(out);
  }

  // A mesh as its scaled bounding box; false (with a note) when the file cannot be sized.
  bool meshBox(const urdf::Link& l, const urdf::Mesh& m, Visual& out) {
    std::string file = m.filename, why;
    if (file.rfind("file://", 0) == 0) file = file.substr(7);
    std::optional<Bounds> b;
    if (file.rfind("package://", 0) == 0)
      why = "package:// URIs are not resolved (no ROS package path)";
    else
      b = meshBounds(std::filesystem::path(file).is_absolute() ? file : baseDir_ + "/" + file, why);
    if (!b) {
      out_.notes.push_back("link '" + l.name + "': mesh '" + m.filename + "' not drawn: " + why);
      return false;
    }
    const Vector3d scale(m.scale.x, m.scale.y, m.scale.z);
    const Vector3d size = (b->hi - b->lo).cwiseProduct(scale).cwiseAbs(),
                   centre = 0.5 * (b->hi + b->lo).cwiseProduct(scale);
    Matrix4d shift = Matrix4d::Identity();
    shift.topRightCorner<3, 1>() = centre;
    out.kind = Visual::Kind::Box, out.size = {size.x(), size.y(), size.z()}, out.origin = out.origin * shift;
    out.fromMesh = true;
    out_.notes.push_back("link '" + l.name + "': mesh '" + m.filename + "' drawn as its bounding box");
    return true;
  }

  Model& out_;
  std::string source_, baseDir_;
  std::map<std::string, int> order_;
};

// Robots have tens of joints; the bound keeps a hostile file from asking for a gigabyte mass matrix (and
// keeps the depth-first recursion shallow). Building the tree is linear in its memo (the first-derivative
// rows, sum over frames of the path length): a serial chain of 500 joints loads and steps once in 0.4 s and
// 90 MB (64 joints: 0.05 s, 36 MB), so one path may use the whole budget.
constexpr size_t kMaxJoints = 500;

// Every dynamic variable must move some mass, or M(q) is singular and no integrator can step.
void checkMassMatrix(Model& m, const std::string& source) {
  const int n = m.tree.dof();
  if (n == 0) return;
  m.tree.setState(Eigen::VectorXd::Zero(n), Eigen::VectorXd::Zero(n));
  const Eigen::MatrixXd M = tree::massMatrix(m.tree);
  const double scale = std::max(1.0, M.diagonal().maxCoeff());
  for (int i = 0; i < n; ++i)
    if (!(M(i, i) > 1e-12 * scale))
      throw BadInput(source + ": joint '" + m.joints[i].name +
                     "' moves no mass or inertia (the mass matrix is singular): give a link below it an <inertial>");
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(M);
  if (!(eig.eigenvalues()(0) > 1e-12 * scale)) {
    Eigen::Index worst;
    eig.eigenvectors().col(0).cwiseAbs().maxCoeff(&worst);
    throw BadInput(source + ": the mass matrix is singular at q = 0 (smallest eigenvalue " +
                   text(eig.eigenvalues()(0)) + "), mostly along joint '" + m.joints[worst].name +
                   "': two joints move the same inertia the same way");
  }
}

}  // namespace

Model parseUrdf(const std::string& xml, const std::string& source, const std::string& baseDir) {
  refuseNulBytes(xml, source);  // TinyXML reads a C string: text after a NUL would be silently dropped
  checkXmlLimits(xml, source);  // before TinyXML recurses over the nesting or compares attributes pairwise
  const Outline outline = outlineUrdf(xml, source);
  if (outline.jointOrder.size() > kMaxJoints)
    throw BadInput(source + ": " + std::to_string(outline.jointOrder.size()) + " joints; at most " +
                   std::to_string(kMaxJoints) + " (the dense mass matrix and the recursions are sized for robots)");
  urdf::ModelInterfaceSharedPtr parsed;
  std::string errors;
  {
    ParserMessages messages;
    try {
      parsed = urdf::parseURDF(xml);
    } catch (const std::exception& e) {
      errors = e.what();
    }
    if (errors.empty()) errors = messages.errors();
  }
  // urdfdom logs some errors and still returns a model (an unparsable <inertial> is dropped from its link):
  // any error it reports refuses the file.
  if (!parsed || !errors.empty())
    throw BadInput(source + ": urdfdom: " + (errors.empty() ? std::string("parse failed") : errors));
  if (!parsed->getRoot()) throw BadInput(source + ": no root link (a URDF needs at least one <link>)");
  Model m;
  m.robot = parsed->getName();
  m.notes = outline.notes;
  Builder(m, source, baseDir, outline)
      .link(*parsed->getRoot(), m.tree.addFixed(tree::Tree::kWorld, Matrix4d::Identity()));
  checkMassMatrix(m, source);
  return m;
}

Model loadUrdfFile(const std::string& path) {
  return parseUrdf(readUserFile(path, "URDF file", kMaxUrdfFileBytes), path,
                   std::filesystem::path(path).parent_path().string());
}

}  // namespace varsim::urdf_import
