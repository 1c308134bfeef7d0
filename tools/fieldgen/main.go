// Command fieldgen carries gitleaks' default rule set, the field's common
// floor, into rac: it writes internal/redact/fieldrules_table.go (go
// generate ./internal/redact/ runs it), a table of every rule's keywords,
// expression, secret group, entropy floor and the allowlists that can
// apply to command output, with, from an analysis of each expression, the
// prefilter literals that stand for the rule and how to run it around a
// hit. It also answers the differential test's questions about gitleaks,
// which the test asks through it so that the rac test binary never links
// gitleaks: -rules lists the default rules, -examples DIR the examples in
// the rule sources of the module at DIR, -detect what gitleaks finds in
// each text of a JSON list on standard input; all as JSON.
//
// It lives outside internal/ because it links gitleaks, and through it
// the settings library, which no package of rac may (scripts/check-layers.sh).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
)

// Source names the rule set; go.mod requires the same version.
const Source = "github.com/zricethezav/gitleaks/v8@v8.30.1"

func main() {
	log.SetFlags(0)
	log.SetPrefix("fieldgen: ")
	out := flag.String("o", "fieldrules_table.go", "`file` to write the table to")
	rules := flag.Bool("rules", false, "list the default rules")
	examples := flag.String("examples", "", "list the examples in the rule sources of the gitleaks module at `dir`")
	detect := flag.Bool("detect", false, "report what gitleaks finds in each {Text, Path} of a JSON list on standard input")
	flag.Parse()
	if err := run(*out, *rules, *examples, *detect); err != nil {
		log.Fatal(err)
	}
}

func run(out string, rules bool, examples string, detect bool) error {
	var v any
	switch {
	case rules:
		rs, err := Rules()
		if err != nil {
			return err
		}
		v = rs
	case examples != "":
		ex, unread, err := Examples(examples)
		if err != nil {
			return err
		}
		v = struct {
			Examples []Example
			Unread   int
		}{ex, unread}
	case detect:
		var texts []Text
		if err := json.NewDecoder(os.Stdin).Decode(&texts); err != nil {
			return err
		}
		fs, err := Detect(texts)
		if err != nil {
			return err
		}
		v = fs
	default:
		src, err := Generate()
		if err != nil {
			return err
		}
		return os.WriteFile(out, src, 0o644)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Println(string(b))
	return err
}
