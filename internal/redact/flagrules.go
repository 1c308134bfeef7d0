package redact

// flagRules are the rules that find a secret flag and its value in command
// lines echoed into output (set -x traces, ps listings).
func flagRules() []rule { return nil }
