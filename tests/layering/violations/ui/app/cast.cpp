// Planted layering violation (never compiled): ui/ must not cast to a scene type.
void f(varsim::Scene& s) { auto* rod = dynamic_cast<const RodScene*>(&s); (void)rod; }  // violation
