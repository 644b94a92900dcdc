// GLSL program loaded from assets/shaders at run time: file lookup (VARSIM_ASSETS env override, else
// the build's VARSIM_ASSET_DIR), compile and link with the driver's log returned as an error string.
// Needs a current GL 3.3 core context with glad loaded.
#pragma once
#include <string>

#include <glad/gl.h>
#include <glm/glm.hpp>
#include <glm/gtc/type_ptr.hpp>

namespace varsim::render {

// Directory holding shaders/ (and the other run-time assets).
std::string assetDirectory();

class ShaderProgram {
 public:
  ShaderProgram() = default;
  ShaderProgram(const ShaderProgram&) = delete;
  ShaderProgram& operator=(const ShaderProgram&) = delete;
  // No GL in the destructor: the context may already be gone; the owner calls destroy().
  ~ShaderProgram() = default;

  // Loads assets/shaders/<vertexFile> and <fragmentFile>; on failure returns false and names the
  // file and the compiler/linker log in error (the GL objects created so far are released).
  bool load(const std::string& vertexFile, const std::string& fragmentFile, std::string& error);
  void destroy();
  void use() const { glUseProgram(program_); }
  GLint uniform(const char* name) const { return glGetUniformLocation(program_, name); }
  GLuint id() const { return program_; }

 private:
  GLuint program_ = 0;
};

// Typed uniform setters by name on a program that is in use.
inline void setUniform(const ShaderProgram& p, const char* name, const glm::vec3& v) {
  glUniform3fv(p.uniform(name), 1, glm::value_ptr(v));
}
inline void setUniform(const ShaderProgram& p, const char* name, const glm::mat4& m) {
  glUniformMatrix4fv(p.uniform(name), 1, GL_FALSE, glm::value_ptr(m));
}
inline void setUniform(const ShaderProgram& p, const char* name, float v) { glUniform1f(p.uniform(name), v); }
inline void setUniform(const ShaderProgram& p, const char* name, int v) { glUniform1i(p.uniform(name), v); }

}  // namespace varsim::render
