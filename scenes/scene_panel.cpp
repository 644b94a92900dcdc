// Builders of scene panel widgets; see scene_panel.h.
#include "scenes/scene_panel.h"

namespace varsim {

PanelWidget PanelWidget::text(std::string s, PanelTone tone, bool sameLine) {
  PanelWidget w;
  w.label = std::move(s);
  w.tone = tone;
  w.sameLine = sameLine;
  return w;
}

PanelWidget PanelWidget::warning(std::string s) {
  PanelWidget w = text(std::move(s), PanelTone::Warn);
  w.kind = Kind::Warning;
  return w;
}

PanelWidget PanelWidget::slider(std::string action, double value, double lo, double hi, std::string format, bool logScale) {
  PanelWidget w;
  w.kind = Kind::Slider;
  w.action = std::move(action);
  w.value = value;
  w.lo = lo;
  w.hi = hi;
  w.format = std::move(format);
  w.logScale = logScale;
  return w;
}

PanelWidget PanelWidget::number(std::string action, double value, std::string format) {
  PanelWidget w = slider(std::move(action), value, 0, 0, std::move(format));
  w.kind = Kind::Number;
  return w;
}

PanelWidget PanelWidget::choice(std::string action, std::vector<std::string> options, int selected, std::string label) {
  return choice(std::move(action), std::make_shared<const std::vector<std::string>>(std::move(options)), selected,
                std::move(label));
}

PanelWidget PanelWidget::choice(std::string action, std::shared_ptr<const std::vector<std::string>> options, int selected,
                                std::string label) {
  PanelWidget w;
  w.kind = Kind::Choice;
  w.action = std::move(action);
  w.options = options ? std::move(options) : std::make_shared<const std::vector<std::string>>();
  w.value = selected;
  w.label = std::move(label);
  return w;
}

PanelWidget PanelWidget::button(std::string label, std::string action, std::string actionValue) {
  PanelWidget w;
  w.kind = Kind::Button;
  w.label = std::move(label);
  w.action = std::move(action);
  w.actionValue = std::move(actionValue);
  return w;
}

}  // namespace varsim
