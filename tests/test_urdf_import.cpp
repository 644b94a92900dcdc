// tests/test_urdf_import.cpp — the URDF import layer (import/urdf_import.h, issue 11 item 5): the shipped
// arm against the same tree built by hand (M(q), ∇V and every link pose to 1e-12 at random q), a one-link
// URDF pendulum's small-oscillation period against the physical pendulum's closed form, the joint table,
// visuals and mesh bounding boxes, and every unsupported or malformed input refused with the element named.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "engine/integrators/tree_midpoint.h"
#include "engine/sim/errors.h"
#include "engine/tree/tree_lagrangian.h"
#include "import/urdf_import.h"
#include "tests/headless_capture.h"

using namespace varsim;
using Eigen::Matrix3d;
using Eigen::Matrix4d;
using Eigen::Vector3d;
using Eigen::VectorXd;

namespace {

const std::string kArm = std::string(VARSIM_ASSET_DIR) + "/urdf/varsim_arm.urdf";

// URDF's rpy convention written out independently of urdfdom: R = Rz(yaw) Ry(pitch) Rx(roll).
Matrix3d rpy(double r, double p, double y) {
  auto rx = [](double a) {
    Matrix3d m;
    m << 1, 0, 0, 0, std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a);
    return m;
  };
  auto ry = [](double a) {
    Matrix3d m;
    m << std::cos(a), 0, std::sin(a), 0, 1, 0, -std::sin(a), 0, std::cos(a);
    return m;
  };
  auto rz = [](double a) {
    Matrix3d m;
    m << std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a), 0, 0, 0, 1;
    return m;
  };
  return rz(y) * ry(p) * rx(r);
}

Matrix4d pose(const Vector3d& xyz, const Matrix3d& R = Matrix3d::Identity()) {
  Matrix4d g = Matrix4d::Identity();
  g.topLeftCorner<3, 3>() = R, g.topRightCorner<3, 1>() = xyz;
  return g;
}

// A rotation with third column a built from an orthonormal basis (not urdfdom's or the importer's
// construction): any such R gives R RotZ(q) R^T = rotation by q about a.
Matrix3d basisWithZ(Vector3d a) {
  a.normalize();
  const Vector3d e = std::abs(a.x()) < 0.9 ? Vector3d::UnitX() : Vector3d::UnitY();
  const Vector3d u = a.cross(e).normalized(), v = a.cross(u);
  Matrix3d R;
  R << u, v, a;
  return R;
}

// A joint about an arbitrary axis in the hand-built tree: frame at the child link's origin.
int hinge(tree::Tree& t, int parent, const Vector3d& axis, tree::Joint motion = tree::Joint::RotZ) {
  const Matrix3d R = basisWithZ(axis);
  const int a = t.addFixed(parent, pose(Vector3d::Zero(), R));
  const int j = t.addFrame(a, motion, tree::Drive::Dynamic);
  return t.addFixed(j, pose(Vector3d::Zero(), R.transpose()));
}

void mass(tree::Tree& t, int frame, const Matrix4d& at, double m, const Vector3d& diag) {
  t.addMass(t.addFixed(frame, at), m, diag.asDiagonal());
}

// assets/urdf/varsim_arm.urdf by hand, from the numbers in the file; returns the link frames in the
// importer's order (base, turret, upper_arm, forearm, gripper, tool).
std::vector<int> handBuiltArm(tree::Tree& t) {
  const int base = t.addFixed(tree::Tree::kWorld, Matrix4d::Identity());
  mass(t, base, pose({0, 0, 0.05}), 10, {0.0833, 0.0833, 0.15});
  const int turret = t.addFrame(t.addFixed(base, pose({0, 0, 1.2})), tree::Joint::RotZ, tree::Drive::Dynamic);
  mass(t, turret, pose({0, 0, 0.075}), 2, {0.006950, 0.006950, 0.0064});
  const int upper = hinge(t, t.addFixed(turret, pose({0, 0, 0.15})), {0, -1, 0});
  mass(t, upper, pose({0.25, 0, 0}), 1.5, {0.0009, 0.03170, 0.03170});
  const int fore = hinge(t, t.addFixed(upper, pose({0.5, 0, 0}, rpy(0, 0.3, 0))), {0, 0.8, 0.6});
  mass(t, fore, pose({0.2, 0, 0}, rpy(0, M_PI / 2, 0)), 1.0, {0.013558, 0.013558, 0.00045});
  const int grip = t.addFrame(t.addFixed(fore, pose({0.4, 0, 0})), tree::Joint::TransX, tree::Drive::Dynamic);
  mass(t, grip, pose({0.05, 0, 0}, rpy(0.2, 0, 0)), 0.3, {0.000183, 0.000273, 0.00041});
  const int tool = t.addFixed(grip, pose({0.12, 0, 0}));
  mass(t, tool, Matrix4d::Identity(), 0.1, {0.000025, 0.000025, 0.000025});
  return {base, turret, upper, fore, grip, tool};
}

urdf_import::Model parse(const std::string& body) {
  return urdf_import::parseUrdf("<robot name=\"t\">" + body + "</robot>", "test.urdf");
}

std::string refusal(const std::string& xml) {
  try {
    urdf_import::parseUrdf(xml, "test.urdf");
  } catch (const BadInput& e) {
    return e.what();
  }
  return "(accepted)";
}

const char* kLink =
    "<inertial><mass value=\"1\"/><inertia ixx=\"0.1\" iyy=\"0.1\" izz=\"0.1\" ixy=\"0\" ixz=\"0\" "
    "iyz=\"0\"/></inertial>";

std::string link(const std::string& name) { return "<link name=\"" + name + "\">" + kLink + "</link>"; }
std::string joint(const std::string& name, const std::string& type, const std::string& parent, const std::string& child,
                  const std::string& extra = "") {
  return "<joint name=\"" + name + "\" type=\"" + type + "\"><parent link=\"" + parent + "\"/><child link=\"" + child +
         "\"/>" + extra + "</joint>";
}

}  // namespace

TEST_CASE("UrdfArmMatchesTheHandBuiltTree") {
  urdf_import::Model m = urdf_import::loadUrdfFile(kArm);
  tree::Tree hand;
  const std::vector<int> handLinks = handBuiltArm(hand);
  REQUIRE(m.tree.dof() == 4);
  REQUIRE(hand.dof() == 4);
  REQUIRE(m.linkFrame.size() == handLinks.size());
  CHECK(m.links == std::vector<std::string>{"base", "turret", "upper_arm", "forearm", "gripper", "tool"});
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-2.5, 2.5);
  double worstM = 0, worstG = 0, worstV = 0, worstT = 0;
  for (int trial = 0; trial < 20; ++trial) {
    VectorXd q(4), qd(4);
    for (int i = 0; i < 4; ++i) q(i) = u(rng), qd(i) = u(rng);
    m.tree.setState(q, qd), hand.setState(q, qd);
    worstM = std::max(worstM, (tree::massMatrix(m.tree) - tree::massMatrix(hand)).cwiseAbs().maxCoeff());
    worstV = std::max(worstV, (tree::gradV(m.tree) - tree::gradV(hand)).cwiseAbs().maxCoeff());
    worstV = std::max(worstV, std::abs(tree::potentialEnergy(m.tree) - tree::potentialEnergy(hand)));
    worstT = std::max(worstT, std::abs(tree::kineticEnergy(m.tree) - tree::kineticEnergy(hand)));
    for (size_t l = 0; l < handLinks.size(); ++l)
      worstG = std::max(worstG, (m.tree.g(m.linkFrame[l]) - hand.g(handLinks[l])).cwiseAbs().maxCoeff());
  }
  MESSAGE("arm vs hand-built: |dM| " << worstM << ", |dg| " << worstG << ", |dV|,|dgradV| " << worstV << ", |dT| "
                                     << worstT);
  CHECK(worstM < 1e-12);
  CHECK(worstG < 1e-12);
  CHECK(worstV < 1e-12);
  CHECK(worstT < 1e-12);
}

TEST_CASE("UrdfArmJointTableVisualsAndNotes") {
  const urdf_import::Model m = urdf_import::loadUrdfFile(kArm);
  REQUIRE(m.joints.size() == 4);
  CHECK(m.robot == "varsim_arm");
  CHECK(m.joints[0].name == "base_yaw");
  CHECK_FALSE(m.joints[0].limited);  // continuous
  CHECK(m.joints[0].damping == doctest::Approx(0.05));
  CHECK(m.joints[1].name == "shoulder");
  CHECK(m.joints[1].lower == -2.8);
  CHECK(m.joints[1].upper == 2.8);
  CHECK(m.joints[2].name == "elbow");
  CHECK(m.joints[3].name == "slide");
  CHECK(m.joints[3].prismatic);
  CHECK(m.joints[3].damping == doctest::Approx(0.5));
  int boxes = 0, cylinders = 0, spheres = 0;
  for (const auto& v : m.visuals) {
    boxes += v.kind == urdf_import::Visual::Kind::Box;
    cylinders += v.kind == urdf_import::Visual::Kind::Cylinder;
    spheres += v.kind == urdf_import::Visual::Kind::Sphere;
  }
  CHECK(boxes == 3);
  CHECK(cylinders == 3);
  CHECK(spheres == 3);
  CHECK(m.notes.empty());  // everything in our own file is modelled
}

TEST_CASE("UrdfPendulumSmallOscillationPeriodMatchesThePhysicalPendulum") {
  // One link on a hinge about -y (the importer's alignment path), centre of mass L below the hinge:
  // T = 2 pi sqrt((I_yy + m L^2) / (m g L)).
  const double m = 2.0, L = 0.8, Iyy = 0.02, g = 9.81;
  urdf_import::Model p = parse(
      "<link name=\"world\"/><link name=\"bob\"><inertial><origin xyz=\"0 0 -0.8\"/><mass value=\"2\"/>"
      "<inertia ixx=\"0.01\" iyy=\"0.02\" izz=\"0.015\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>" +
      joint("hinge", "continuous", "world", "bob", "<origin xyz=\"0 0 1\"/><axis xyz=\"0 -1 0\"/>"));
  REQUIRE(p.tree.dof() == 1);
  const double closed = 2 * M_PI * std::sqrt((Iyy + m * L * L) / (m * g * L));
  const double h = 1e-3;
  tree::TreeMidpoint vi(p.tree);
  tree::TreeForcing none;
  vi.initialize(VectorXd::Constant(1, 0.02), VectorXd::Zero(1), h, none);
  // Upward zero crossings of q (linear interpolation); the period is their mean spacing.
  std::vector<double> ups;
  double prev = vi.q()(0), t = 0;
  while (ups.size() < 5) {
    vi.step(none);
    t += h;
    const double now = vi.q()(0);
    if (prev < 0 && now >= 0) ups.push_back(t - h * now / (now - prev));
    prev = now;
  }
  const double period = (ups.back() - ups.front()) / double(ups.size() - 1);
  MESSAGE("URDF pendulum period " << period << " s, closed form " << closed << " s, rel err "
                                  << (period - closed) / closed);
  CHECK(std::abs(period - closed) < 0.005 * closed);
}

TEST_CASE("UrdfUnsupportedElementsAreRefusedWithTheElementNamed") {
  struct Case {
    const char* what;
    std::string xml;
    std::vector<std::string> says;
  };
  const std::string two = link("a") + link("b");
  const std::vector<Case> cases{
      {"floating joint",
       "<robot name=\"r\">" + two + joint("free", "floating", "a", "b") + "</robot>",
       {"test.urdf:", "joint 'free'", "type 'floating' is not supported"}},
      {"planar joint",
       "<robot name=\"r\">" + two + joint("flat", "planar", "a", "b") + "</robot>",
       {"joint 'flat'", "type 'planar' is not supported"}},
      {"unknown type",
       "<robot name=\"r\">" + two + joint("odd", "ball", "a", "b") + "</robot>",
       {"joint 'odd'", "unknown joint type 'ball'"}},
      {"mimic",
       "<robot name=\"r\">" + two + link("c") + joint("j1", "continuous", "a", "b") +
           joint("j2", "continuous", "b", "c", "<mimic joint=\"j1\"/>") + "</robot>",
       {"joint 'j2'", "<mimic joint=\"j1\">", "not supported"}},
      {"closed loop",
       "<robot name=\"r\">" + two + link("c") + joint("j1", "continuous", "a", "c") +
           joint("j2", "continuous", "b", "c") + "</robot>",
       {"joint 'j2'", "link 'c' is already the child of joint 'j1'", "closed loop"}},
      {"cycle",
       "<robot name=\"r\">" + two + joint("j1", "fixed", "a", "b") + joint("j2", "fixed", "b", "a") + "</robot>",
       {"closed loop", "one root link"}},
      {"several roots", "<robot name=\"r\">" + two + "</robot>", {"urdfdom", "Two root links found"}},
      {"malformed XML", "<robot name=\"r\"><link name=\"a\"></robot>", {"test.urdf:1:", "malformed XML"}},
      {"not URDF", "<model name=\"r\"/>", {"root element is <model>"}},
      {"parser error",
       "<robot name=\"r\">" + two + joint("j", "revolute", "a", "b") + "</robot>",
       {"urdfdom", "does not specify limits"}},
      {"zero axis",
       "<robot name=\"r\">" + two + joint("j", "continuous", "a", "b", "<axis xyz=\"0 0 0\"/>") + "</robot>",
       {"joint 'j'", "not a direction"}},
      {"massless joint",
       "<robot name=\"r\">" + link("a") + "<link name=\"b\"/>" + joint("j", "continuous", "a", "b") + "</robot>",
       {"joint 'j'", "moves no mass"}},
      {"negative mass",
       "<robot name=\"r\">" + link("a") +
           "<link name=\"b\"><inertial><mass value=\"-1\"/><inertia ixx=\"1\" iyy=\"1\" izz=\"1\" "
           "ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>" +
           joint("j", "continuous", "a", "b") + "</robot>",
       {"link 'b'", "<inertial>"}},
      {"inertial urdfdom drops",
       "<robot name=\"r\">" + link("a") + "<link name=\"b\">" + kLink +
           "</link><link name=\"c\"><inertial><mass "
           "value=\"1e400\"/><inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" "
           "ixz=\"0\" iyz=\"0\"/></inertial></link>" +
           joint("j", "continuous", "a", "b") + joint("k", "fixed", "b", "c") + "</robot>",
       {"urdfdom", "mass [1e400] is not a float"}},
      {"negative visual",
       "<robot name=\"r\">" + link("a") + "<link name=\"b\">" + kLink +
           "<visual><geometry><sphere radius=\"-2\"/></geometry></visual></link>" + joint("j", "continuous", "a", "b") +
           "</robot>",
       {"link 'b'", "sizes must be finite and >= 0"}},
  };
  std::string many = "<robot name=\"r\">" + link("l0");
  for (int i = 1; i <= 501; ++i)
    many += link("l" + std::to_string(i)) +
            joint("j" + std::to_string(i), "fixed", "l" + std::to_string(i - 1), "l" + std::to_string(i));
  CHECK(refusal(many + "</robot>").find("501 joints; at most 500") != std::string::npos);
  for (const auto& c : cases) {
    const std::string msg = refusal(c.xml);
    INFO(c.what << ": " << msg);
    for (const auto& s : c.says) CHECK(msg.find(s) != std::string::npos);
  }
  CHECK(refusal("").find("malformed XML") != std::string::npos);
  try {
    urdf_import::loadUrdfFile("/nonexistent/arm.urdf");
    FAIL("accepted a missing file");
  } catch (const BadInput& e) {
    CHECK(std::string(e.what()).find("/nonexistent/arm.urdf: cannot open the URDF file: No such file or directory") != std::string::npos);
  }
}

TEST_CASE("UrdfIgnoredElementsBecomeNotesAndMeshesTheirBoundingBoxes") {
  const std::string dir = test::testOut("urdf_mesh");
  std::filesystem::create_directories(dir);
  test::writeFile(dir + "/part.stl",
                  "solid p\nfacet normal 0 0 1\nouter loop\nvertex -1 0 0\nvertex 3 2 0\nvertex 0 0 5\nendloop\n"
                  "endfacet\nendsolid p\n");
  test::writeFile(dir + "/robot.urdf",
                  "<robot name=\"m\"><link name=\"a\"/><link name=\"b\">" + std::string(kLink) +
                      "<visual><geometry><mesh filename=\"part.stl\" scale=\"0.1 0.1 0.1\"/></geometry></visual>"
                      "<visual><geometry><mesh filename=\"package://pkg/x.dae\"/></geometry></visual>"
                      "<collision><geometry><sphere radius=\"1\"/></geometry></collision></link>" +
                      joint("j", "continuous", "a", "b", "<dynamics damping=\"0.1\" friction=\"0.2\"/>") +
                      "<transmission name=\"t1\"/></robot>");
  const urdf_import::Model m = urdf_import::loadUrdfFile(dir + "/robot.urdf");
  REQUIRE(m.visuals.size() == 1);
  const auto& box = m.visuals[0];
  CHECK(box.fromMesh);
  CHECK(box.size[0] == doctest::Approx(0.4));
  CHECK(box.size[1] == doctest::Approx(0.2));
  CHECK(box.size[2] == doctest::Approx(0.5));
  CHECK(box.origin.topRightCorner<3, 1>().isApprox(Vector3d(0.1, 0.1, 0.25)));
  std::string all;
  for (const auto& n : m.notes) all += n + "\n";
  INFO(all);
  for (const char* s : {"part.stl' drawn as its bounding box", "package:// URIs are not resolved",
                        "<collision> element(s) ignored", "<dynamics friction> ignored", "<transmission name=\"t1\">"})
    CHECK(all.find(s) != std::string::npos);
}

TEST_CASE("UrdfChainMidpointKeepsEnergyBoundedOverTenThousandSteps") {
  // Three continuous joints on tilted axes, every link an offset box: smooth and conservative (no limits,
  // no damping), so the midpoint VI's energy error must stay bounded with no drift.
  const std::string box = "<inertia ixx=\"0.02\" iyy=\"0.03\" izz=\"0.04\" ixy=\"0.001\" ixz=\"0\" iyz=\"0.002\"/>";
  auto body = [&](const std::string& name) {
    return "<link name=\"" + name + "\"><inertial><origin xyz=\"0.3 0.05 0\" rpy=\"0.1 0.2 0.3\"/><mass value=\"1\"/>" +
           box + "</inertial></link>";
  };
  urdf_import::Model c =
      parse("<link name=\"base\"/>" + body("l1") + body("l2") + body("l3") +
            joint("j1", "continuous", "base", "l1", "<axis xyz=\"0 1 0\"/>") +
            joint("j2", "continuous", "l1", "l2", "<origin xyz=\"0.6 0 0\"/><axis xyz=\"0.6 0 0.8\"/>") +
            joint("j3", "continuous", "l2", "l3", "<origin xyz=\"0.6 0 0\" rpy=\"0 0 0.5\"/><axis xyz=\"0 1 1\"/>"));
  REQUIRE(c.tree.dof() == 3);
  tree::TreeMidpoint vi(c.tree);
  tree::TreeForcing none;
  vi.initialize(VectorXd::Constant(3, 0.3), VectorXd::Zero(3), 0.01, none);
  const double e0 = vi.energy();
  double first = 0, all = 0;  // max |E - E0| over the first 10^3 and all 10^4 steps
  for (int k = 1; k <= 10000; ++k) {
    vi.step(none);
    const double d = std::abs(vi.energy() - e0);
    all = std::max(all, d);
    if (k <= 1000) first = all;
  }
  const double scale = 3 * 9.81 * 1.8;  // weight times reach
  MESSAGE("3-link URDF chain, midpoint h = 0.01: max |E - E0| " << first << " J (10 s), " << all << " J (100 s), scale "
                                                                << scale << " J");
  CHECK(all < 1e-2 * scale);
  CHECK(all < 5 * first);  // bounded: a linear drift would be ~10x the first tenth
}

TEST_CASE("UrdfMutatedArmFilesAreParsedOrRefusedNeverCrash") {
  // 400 byte flips and 100 truncations of the shipped arm: each parses or throws BadInput (anything else
  // escaping fails the test; under ASan/UBSan every memory error does).
  const std::string arm = test::readFile(kArm);
  std::mt19937 rng(2026);
  int parsed = 0, refused = 0;
  auto attempt = [&](const std::string& xml) {
    try {
      urdf_import::parseUrdf(xml, "mutant.urdf");
      ++parsed;
    } catch (const BadInput&) {
      ++refused;
    }
  };
  for (int k = 0; k < 400; ++k) {
    std::string m = arm;
    for (int flips = 0; flips < 1 + k % 4; ++flips)
      m[std::uniform_int_distribution<size_t>(0, m.size() - 1)(rng)] ^= char(1u << (rng() % 8));
    attempt(m);
  }
  for (int k = 0; k < 100; ++k) attempt(arm.substr(0, std::uniform_int_distribution<size_t>(0, arm.size())(rng)));
  MESSAGE("mutated arm files: " << parsed << " parsed, " << refused << " refused");
  CHECK(parsed + refused == 500);
  CHECK(refused > 0);
}
