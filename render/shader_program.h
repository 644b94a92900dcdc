// GLSL program loaded from assets/shaders at run time: file lookup (VARSIM_ASSETS env override, else
// the build's VARSIM_ASSET_DIR), compile and link with the driver's log returned as an error string.
// Needs a current GL 3.3 core context with glad loaded.
#pragma once
#include <string>

#include <glad/gl.h>

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

}  // namespace varsim::render
