package session

// AgentPresent reports whether an agent harness runs this command: any
// harness id or agent marker variable is set, however the session was
// chosen (RAC_SESSION set by a hook, --session). rac run then captures
// through pipes and announces the recording first. nil tables mean the
// defaults.
func AgentPresent(getenv func(string) string, ids []IDVar, markers []MarkerVar) (bool, string) {
	if ids == nil {
		ids = DefaultIDVars
	}
	if markers == nil {
		markers = DefaultMarkerVars
	}
	for _, v := range ids {
		if getenv(v.Var) != "" && (v.Requires == "" || getenv(v.Requires) != "") {
			return true, v.Var
		}
	}
	for _, m := range markers {
		if getenv(m.Var) != "" {
			return true, m.Var
		}
	}
	return false, ""
}
