package app

import "github.com/rac-cli/rac/internal/session"

// SessionNameForm is the valid form of a session name (for help text).
const SessionNameForm = session.NameForm

// SessionView is the stable shape of rac session --json.
type SessionView struct {
	Name      string           `json:"name"`
	Rule      string           `json:"rule"`
	Source    string           `json:"source"`
	Var       string           `json:"var"`
	FromAgent bool             `json:"from_agent"`
	Rules     []SessionRuleRep `json:"rules"`
}

// SessionRuleRep is one rule of SessionView: what it saw, whether it was
// taken and why.
type SessionRuleRep struct {
	Rule    string   `json:"rule"`
	Taken   bool     `json:"taken"`
	Reached bool     `json:"reached"`
	Saw     []string `json:"saw"`
	Why     string   `json:"why"`
	Hint    string   `json:"hint"`
}

// Session is rac session: the current session and, in the view, every
// rule's report.
func (a *App) Session() (session.Identity, SessionView, error) {
	id, err := a.Identify(true)
	if err != nil {
		return id, SessionView{}, err
	}
	v := SessionView{Name: id.Name, Rule: id.Rule, Source: id.Source, Var: id.Var, FromAgent: id.FromAgent, Rules: []SessionRuleRep{}}
	for _, r := range id.Report {
		saw := validUTF8s(r.Saw)
		v.Rules = append(v.Rules, SessionRuleRep{Rule: r.Rule, Taken: r.Taken, Reached: r.Reached, Saw: saw, Why: ValidUTF8(r.Why), Hint: ValidUTF8(r.Hint)})
	}
	return id, v, nil
}
