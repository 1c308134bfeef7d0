package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/session"
)

type sessionOptions struct {
	a       *app
	explain bool
	json    bool
}

func newSessionCmd(a *app) *cobra.Command {
	o := &sessionOptions{a: a}
	cmd := &cobra.Command{
		Use:   "session [--explain] [--json]",
		Short: "Print the current session's name",
		Long: `Print the name of the session this shell records into and reads short
references from. --explain prints every rule in order, what it saw and why
it was or was not taken, so you can see why two shells do or do not share a
session.`,
		Example: `  rac session
  rac session --explain
  rac session --json
  RAC_SESSION=my-task rac session`,
		Args: cobra.NoArgs,
		RunE: o.run,
	}
	cmd.Flags().StringVar(&a.sessionFlag, "session", "", "use session `NAME`")
	cmd.Flags().BoolVar(&o.explain, "explain", false, "say which rule chose the session and why")
	cmd.Flags().BoolVar(&o.json, "json", false, "print one JSON object (shape in README)")
	return cmd
}

// sessionJSON is the stable shape of rac session --json.
type sessionJSON struct {
	Name      string           `json:"name"`
	Rule      string           `json:"rule"`
	Source    string           `json:"source"`
	Var       string           `json:"var"`
	FromAgent bool             `json:"from_agent"`
	Rules     []sessionRuleRep `json:"rules"`
}

type sessionRuleRep struct {
	Rule    string   `json:"rule"`
	Taken   bool     `json:"taken"`
	Reached bool     `json:"reached"`
	Saw     []string `json:"saw"`
	Why     string   `json:"why"`
	Hint    string   `json:"hint"`
}

func (o *sessionOptions) run(cmd *cobra.Command, _ []string) error {
	id, err := o.a.identifyOpts(false)
	if err != nil {
		return err
	}
	out := o.a.streams.Out
	if o.json {
		j := sessionJSON{Name: id.Name, Rule: id.Rule, Source: id.Source, Var: id.Var, FromAgent: id.FromAgent, Rules: []sessionRuleRep{}}
		for _, r := range id.Report {
			saw := validUTF8s(r.Saw)
			if saw == nil {
				saw = []string{}
			}
			j.Rules = append(j.Rules, sessionRuleRep{Rule: r.Rule, Taken: r.Taken, Reached: r.Reached, Saw: saw, Why: validUTF8(r.Why), Hint: validUTF8(r.Hint)})
		}
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(j)
	}
	fmt.Fprintln(out, id.Name)
	if o.explain {
		return id.WriteExplain(&escapingWriter{w: out})
	}
	return nil
}

// identify works out the current session, with the harness tables the
// config file extends.
func (a *app) identify() (session.Identity, error) {
	return a.identifyOpts(true)
}

// identifyOpts is identify; with noReport false the identity's report
// also says what the rules after the taken one saw (rac session prints it).
func (a *app) identifyOpts(noReport bool) (session.Identity, error) {
	opts := session.Options{Flag: a.sessionFlag, Getenv: a.getenv, NoReport: noReport}
	if a.cfg != nil {
		var err error
		if specs := a.cfg.list("session.id_vars"); specs != nil {
			if opts.IDVars, err = session.ParseIDVars(specs); err != nil {
				return session.Identity{}, usageError{err}
			}
		}
		if specs := a.cfg.list("session.marker_vars"); specs != nil {
			if opts.MarkerVars, err = session.ParseMarkerVars(specs); err != nil {
				return session.Identity{}, usageError{err}
			}
		}
	}
	return session.Identify(opts)
}
