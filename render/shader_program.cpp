// Shader file loading, compilation and linking (see shader_program.h).
#include "render/shader_program.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

namespace varsim::render {
namespace {

bool readFile(const std::string& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  text = buffer.str();
  return true;
}

std::string shaderLog(GLuint shader) {
  GLint length = 0;
  glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
  std::vector<char> log(std::size_t(length > 1 ? length : 1), '\0');
  glGetShaderInfoLog(shader, GLsizei(log.size()), nullptr, log.data());
  return std::string(log.data());
}

std::string programLog(GLuint program) {
  GLint length = 0;
  glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
  std::vector<char> log(std::size_t(length > 1 ? length : 1), '\0');
  glGetProgramInfoLog(program, GLsizei(log.size()), nullptr, log.data());
  return std::string(log.data());
}

// Compiles one stage; 0 and a message naming the file on failure.
GLuint compileStage(GLenum stage, const std::string& path, std::string& error) {
  std::string source;
  if (!readFile(path, source)) {
    error = "cannot read shader file '" + path + "' (set VARSIM_ASSETS to the assets/ directory)";
    return 0;
  }
  const GLuint shader = glCreateShader(stage);
  const char* text = source.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok != GL_TRUE) {
    error = "shader '" + path + "' failed to compile:\n" + shaderLog(shader);
    glDeleteShader(shader);
    return 0;
  }
  return shader;
}

}  // namespace

std::string assetDirectory() {
  if (const char* env = std::getenv("VARSIM_ASSETS"); env != nullptr && env[0] != '\0') return env;
#ifdef VARSIM_ASSET_DIR
  return VARSIM_ASSET_DIR;
#else
  return "assets";
#endif
}

bool ShaderProgram::load(const std::string& vertexFile, const std::string& fragmentFile, std::string& error) {
  destroy();
  const std::string dir = assetDirectory() + "/shaders/";
  const GLuint vs = compileStage(GL_VERTEX_SHADER, dir + vertexFile, error);
  if (vs == 0) return false;
  const GLuint fs = compileStage(GL_FRAGMENT_SHADER, dir + fragmentFile, error);
  if (fs == 0) {
    glDeleteShader(vs);
    return false;
  }
  program_ = glCreateProgram();
  glAttachShader(program_, vs);
  glAttachShader(program_, fs);
  glLinkProgram(program_);
  glDeleteShader(vs);  // flagged for deletion; freed with the program
  glDeleteShader(fs);
  GLint ok = GL_FALSE;
  glGetProgramiv(program_, GL_LINK_STATUS, &ok);
  if (ok != GL_TRUE) {
    error = "shaders '" + vertexFile + "' + '" + fragmentFile + "' failed to link:\n" + programLog(program_);
    destroy();
    return false;
  }
  return true;
}

void ShaderProgram::destroy() {
  if (program_ != 0) glDeleteProgram(program_);
  program_ = 0;
}

}  // namespace varsim::render
