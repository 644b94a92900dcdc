// Scene-file parsing (scenes/scene_file.h) refuses what a JSON library alone would accept or crash
// on: numbers beyond a double, nesting tens of thousands deep, repeated keys; and its messages name
// file, line and key while never echoing a whole value (issue 15 items 1-3).
#include <doctest/doctest.h>

#include <string>

#include "engine/sim/errors.h"
#include "scenes/scene_file.h"

using namespace varsim;

namespace {

std::string messageOf(const std::string& text) {
  try {
    parseSceneJson(text, "f.json");
  } catch (const BadInput& e) {
    return e.what();
  }
  return "";
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::string nested(size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

}  // namespace

TEST_CASE("SceneFileNumbersBeyondADoubleNameFileLineAndKey") {
  for (const char* big : {"1e400", "-1e400", "1.8e308", "123456789e999"}) {
    const std::string m = messageOf("{\"scene\": \"car\",\n \"params\": {\"m\": " + std::string(big) + "}}");
    INFO(m);
    CHECK(has(m, "f.json:2:"));
    CHECK(has(m, "'params.m'"));
    CHECK(has(m, big));
    CHECK(has(m, "out of the range of a double"));
  }
  const std::string inVector = messageOf("{\"scene\": \"rigid_body\", \"params\": {\"inertia\": [1, 1e999, 1]}}");
  CHECK(has(inVector, "f.json:1:"));
  CHECK(has(inVector, "'params.inertia'"));
  // The smallest subnormal is a finite double and is taken, as --set takes it.
  CHECK(parseSceneJson("{\"scene\": \"car\", \"params\": {\"m\": 1e-320}}", "f").params.real("m") == 1e-320);
}

TEST_CASE("SceneFileDeepNestingIsRefusedWithAShortMessage") {
  for (size_t depth : {65, 10000, 80000}) {
    const std::string m = messageOf("{\"scene\": \"car\", \"params\": {\"m\": " + nested(depth) + "}}");
    INFO(depth);
    CHECK(has(m, "nests deeper than 64 levels"));
    CHECK(has(m, "'params.m'"));
    CHECK(m.size() < 200);
  }
  CHECK(has(messageOf(nested(80000)), "the document nests deeper"));
  std::string objects;
  for (int i = 0; i < 80000; ++i) objects += "{\"a\":";
  CHECK(has(messageOf(objects), "the value of key 'a.a.a."));
  // Within the bound a nested value is a type error whose echo is cut to ~60 characters.
  const std::string m = messageOf("{\"scene\": \"car\", \"params\": {\"m\": " + nested(60) + "}}");
  CHECK(has(m, "expected a number"));
  CHECK(has(m, "... (120 characters)"));
  CHECK(m.size() < 250);
}

TEST_CASE("SceneFileValuesAreShortenedInMessages") {
  const std::string longString(100000, 'x');
  std::string m = messageOf("{\"scene\": \"car\", \"params\": {\"m\": \"" + longString + "\"}}");
  CHECK(has(m, "(100002 characters)"));
  CHECK(m.size() < 250);
  m = messageOf("{\"scene\": \"" + longString + "\"}");
  CHECK(has(m, "unknown scene"));
  CHECK(m.size() < 400);
  m = messageOf("{\"scene\": \"car\", \"params\": {\"" + longString + "\": 1}}");
  CHECK(has(m, "unknown key"));
  CHECK(m.size() < 400);
  std::string bigArray = "[";
  for (int i = 0; i < 100000; ++i) bigArray += (i ? ",1" : "1");
  m = messageOf("{\"scene\": \"rigid_body\", \"params\": {\"mass\": " + bigArray + "]}}");
  CHECK(has(m, "expected a number"));
  CHECK(m.size() < 250);
}

TEST_CASE("SceneFileDuplicateKeysAreRefusedAtEveryLevel") {
  std::string m = messageOf("{\"scene\":\"car\",\"scene\":\"boat\"}");
  CHECK(has(m, "f.json"));
  CHECK(has(m, "key 'scene' appears twice"));
  m = messageOf("{\"scene\":\"car\",\"params\":{\"m\":2,\"m\":3}}");
  CHECK(has(m, "key 'params.m' appears twice"));
  m = messageOf("{\"scene\":\"car\",\"params\":{\"m\":2},\"params\":{}}");
  CHECK(has(m, "key 'params' appears twice"));
  m = messageOf("{\"scene\":\"car\",\"params\":{\"m\":[{\"a\":1,\"a\":2}]}}");
  CHECK(has(m, "'params.m.a' appears twice"));
  // The same key in two different objects is not a repeat.
  CHECK(has(messageOf("{\"scene\":\"car\",\"params\":{\"m\":[{\"a\":1},{\"a\":2}]}}"), "expected a number"));
}

TEST_CASE("SceneFileMalformedJsonNamesLineAndColumn") {
  const std::string m = messageOf("{\n  \"scene\": \"car\",\n  \"params\": {\"m\": 2,}\n}");
  CHECK(has(m, "f.json:3:"));
  CHECK(has(m, "malformed JSON"));
  CHECK_FALSE(has(m, "json.exception"));
  CHECK(has(messageOf(""), "f.json:1:1: malformed JSON"));
  CHECK(has(messageOf("{\"scene\": \"car\"} trailing"), "malformed JSON"));
  CHECK(has(messageOf("{\"scene\": \"car\", \"params\": {\"m\": \"\xff\"}}"), "malformed JSON"));
}
