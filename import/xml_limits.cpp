// import/xml_limits.cpp — see xml_limits.h. The scan knows just enough XML to count correctly: comments,
// CDATA, processing instructions and declarations are skipped whole, quoted attribute values may hold '>'
// and '=', and "<x/>" opens nothing. Every byte is looked at a bounded number of times.
#include "import/xml_limits.h"

#include <algorithm>
#include <cctype>

#include "engine/sim/errors.h"

namespace varsim::urdf_import {

namespace {

class Scanner {
 public:
  Scanner(const std::string& xml, const std::string& source) : x_(xml), source_(source) {}

  void run() {
    size_t depth = 0, elements = 0;
    while ((i_ = x_.find('<', i_)) != std::string::npos) {
      const size_t start = i_;
      if (startsWith("<!--")) skipPast("-->");
      else if (startsWith("<![CDATA[")) skipPast("]]>");
      else if (startsWith("<?")) skipPast("?>");
      else if (startsWith("<!")) skipDeclaration();
      else if (startsWith("</")) {
        if (depth > 0) depth--;
        skipPast(">");
      } else {
        const std::string name = elementName();
        const bool opens = attributes(start, name);
        if (++elements > kMaxXmlElements) fail(start, name, "more than " + std::to_string(kMaxXmlElements) +
                                                              " elements; allowed: at most " +
                                                              std::to_string(kMaxXmlElements));
        if (opens && ++depth > kMaxXmlDepth)
          fail(start, name, "nested " + std::to_string(depth) + " elements deep; allowed: at most " +
                                std::to_string(kMaxXmlDepth));
      }
    }
  }

 private:
  bool startsWith(const char* s) const { return x_.compare(i_, std::char_traits<char>::length(s), s) == 0; }
  void skipPast(const char* end) {
    const size_t at = x_.find(end, i_ + 1);
    i_ = at == std::string::npos ? x_.size() : at + std::char_traits<char>::length(end);
  }
  // <!DOCTYPE ... [ internal subset ] >: brackets may hold '>'.
  void skipDeclaration() {
    int brackets = 0;
    for (++i_; i_ < x_.size(); ++i_) {
      if (x_[i_] == '[') brackets++;
      else if (x_[i_] == ']') brackets--;
      else if (x_[i_] == '>' && brackets <= 0) break;
    }
    i_++;
  }
  std::string elementName() {
    const size_t from = ++i_;
    while (i_ < x_.size() && !std::isspace(static_cast<unsigned char>(x_[i_])) && x_[i_] != '>' && x_[i_] != '/')
      i_++;
    return x_.substr(from, std::min<size_t>(i_ - from, 40));
  }
  // Counts the attributes up to the tag's '>'; true when the tag opens an element (not "<x/>").
  bool attributes(size_t start, const std::string& name) {
    size_t count = 0;
    for (; i_ < x_.size(); ++i_) {
      const char c = x_[i_];
      if (c == '"' || c == '\'') {
        const size_t close = x_.find(c, i_ + 1);
        i_ = close == std::string::npos ? x_.size() : close;
      } else if (c == '=') {
        if (++count > kMaxXmlAttributes)
          fail(start, name, "more than " + std::to_string(kMaxXmlAttributes) + " attributes; allowed: at most " +
                                std::to_string(kMaxXmlAttributes));
      } else if (c == '>') {
        const bool selfClosing = x_[i_ - 1] == '/';
        i_++;
        return !selfClosing;
      }
    }
    return false;
  }
  [[noreturn]] void fail(size_t at, const std::string& name, const std::string& why) const {
    size_t line = 1, col = 1;
    for (size_t k = 0; k < at; ++k) {
      if (x_[k] == '\n') line++, col = 1;
      else col++;
    }
    throw BadInput(source_ + ":" + std::to_string(line) + ":" + std::to_string(col) + ": <" + name + ">: " + why);
  }

  const std::string& x_;
  const std::string& source_;
  size_t i_ = 0;
};

}  // namespace

void checkXmlLimits(const std::string& xml, const std::string& source) { Scanner(xml, source).run(); }

}  // namespace varsim::urdf_import
