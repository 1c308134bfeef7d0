package main

import (
	"context"

	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/sources"
)

// Finding is what gitleaks reports, reduced to what the differential test
// compares.
type Finding struct {
	Rule      string
	Secret    string
	Match     string
	StartLine int
	EndLine   int
}

// Text is one input to Detect; Path, when set, is the file it is said to
// come from, for rules gitleaks applies to some file names only.
type Text struct {
	Text, Path string
}

// one is a source of a single fragment.
type one sources.Fragment

func (f one) Fragments(_ context.Context, yield sources.FragmentsFunc) error {
	return yield(sources.Fragment(f), nil)
}

// Detect runs gitleaks' default detector on each text.
func Detect(texts []Text) ([][]Finding, error) {
	d, err := detect.NewDetectorDefaultConfig()
	if err != nil {
		return nil, err
	}
	out := make([][]Finding, len(texts))
	seen := 0
	for i, t := range texts {
		// The detector keeps every finding it has made: the new ones are
		// this text's.
		all, err := d.DetectSource(context.Background(), one{Raw: t.Text, FilePath: t.Path})
		if err != nil {
			return nil, err
		}
		for _, f := range all[seen:] {
			out[i] = append(out[i], Finding{Rule: f.RuleID, Secret: f.Secret, Match: f.Match, StartLine: f.StartLine, EndLine: f.EndLine})
		}
		seen = len(all)
	}
	return out, nil
}

// RuleInfo is a default rule as the differential test needs it.
type RuleInfo struct {
	ID       string
	Regex    string
	Keywords []string
	Path     string
}

// Rules lists every default rule, sorted by id.
func Rules() ([]RuleInfo, error) {
	cfg, err := load()
	if err != nil {
		return nil, err
	}
	var out []RuleInfo
	for _, id := range sortedIDs(cfg.Rules) {
		r := cfg.Rules[id]
		ri := RuleInfo{ID: id, Keywords: r.Keywords}
		if r.Regex != nil {
			ri.Regex = r.Regex.String()
		}
		if r.Path != nil {
			ri.Path = r.Path.String()
		}
		out = append(out, ri)
	}
	return out, nil
}
