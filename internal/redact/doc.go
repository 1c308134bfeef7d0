// Package redact owns rac's secret redaction: it decides which bytes of a
// command's output, argv, cwd and summaries are secrets and replaces each
// secret span with a marker naming the rule that found it, such as
// [REDACTED:github-token] or [REDACTED:env:GH_TOKEN].
//
// Two promises hold for every caller and must never be broken:
//
//   - no byte that a rule classifies as secret is ever written to dst, and if
//     redaction itself fails, raw bytes stop reaching dst (fail closed);
//   - no other byte is dropped, changed or reordered: the output is the input
//     with secret spans replaced by markers, whatever the write sizes were.
//
// # How it finds secrets
//
// The rule table is data in rules.go. Every rule has literal prefixes; one
// Aho-Corasick automaton over ASCII-case-folded bytes finds all of them in a
// single pass (behind a vector prefilter on the first four bytes of every
// literal where the CPU has AVX2), and each hit is verified by a small
// byte-loop matcher on the line that holds it; the matchers that translate a
// regular expression are fuzzed against it (matchdiff_test.go). A hit that can never verify, the
// auth of a git Author: line, is dropped before its line is looked at.
//
// No rule matches across a newline, so complete lines are final: the Writer
// redacts and emits everything up to the last newline and holds only the
// partial last line. Where rules overlap, the union of their spans is
// replaced and the marker names the most specific rule (environment literal,
// then private key, then token shapes, then Kubernetes secret data, then
// header and URL credentials, then generic assignments).
//
// # Terminal sequences
//
// Detection sees what a person reads. A line that holds ESC is analyzed
// through its terminal view (ansi.go): the line with its escape sequences
// taken out (SGR colours, every other CSI, OSC, DCS, SOS, PM and APC
// strings up to BEL or ST, charset designations and two-byte escapes, on
// the same boundaries as termtext, which 'rac out read' shows), where a
// cursor-forward ESC[nC reads as n spaces. A map from each view byte to the
// raw byte behind it takes every span back to the recording: the span's
// printable bytes become the marker, written where its first printable byte
// was, and the escape sequences inside it stay where they were, so a colour
// that opens or closes inside a secret still does and nothing bleeds. The
// payload of a control string (a window title that carries the command
// line, an OSC 8 link's URL) is redacted on its own, as a line of its own.
// A dropped key body line (below) goes whole when its sequences are only
// colours, the last one a reset, and no colour was on before it; otherwise
// its sequences are written in its place. A line without ESC pays one
// IndexByte per region for all this. Eight-bit C1 introducers are not
// read as sequences.
//
// Four kinds of state cross lines:
//
//   - PEM private keys: a BEGIN ... PRIVATE KEY line whose key body follows on
//     later lines starts a small state machine; the header and footer are kept,
//     the first body line becomes the marker and later body lines are dropped.
//     The header may start anywhere on its line, and whatever precedes it
//     (export KEY=", key: , a quote, a log prefix, a colour code, a diff's +)
//     may be repeated on the body lines, with other digits (per-line
//     timestamps), in part (a grep file name) or not at all.
//     RFC 1421 header fields (Proc-Type, DEK-Info, PGP's Version) and blank
//     lines before the body are kept. The machine stops at the footer, at the
//     first line that is not key material, or after 1 MiB of body. A key on
//     one line (a JSON string with \n escapes, or \\n when that JSON is in a
//     string itself) loses everything between header and footer, or without
//     a footer the key material after the header, escape by escape.
//     Base64-encoded PEM (LS0tLS1CRUdJTi...) wrapped at 64 or 76 columns is
//     followed the same way. A key in source code, one string literal per
//     line ("-----BEGIN ...-----\n" +, then "MIIE...\n" +, "MIIE..." \ or
//     "MIIE...", after a quote that opens right before the header and closes
//     after it, before a +, ., comma or backslash), is followed literal by
//     literal: the base64 between the quotes is the key material. A PuTTY
//     key's "Private-Lines: N" starts the same machine for exactly the N
//     lines that follow; the public lines and the MAC stay.
//   - Kubernetes Secret data. kubectl prints data: before kind: Secret, so a
//     streaming redactor cannot know in time that a data: block belongs to a
//     Secret, and holding output until kind: appears would delay lines and
//     complicate the bound. Instead every YAML data: block (data: alone on its
//     line), every multi-line JSON "data": { object, and a one-line JSON
//     "data":{...} after "apiVersion" (kubectl's last-applied-configuration
//     annotation) is treated as a Secret's: its direct values are redacted
//     when they are well-formed base64 (standard alphabet, correct padding,
//     not plain hex or digits) that decodes to at least 8 bytes, carries
//     padding, or decodes to printable text. Every stringData: value is
//     redacted, block scalars included. ConfigMap (or other) data whose values
//     happen to be such base64 is redacted too: a deliberate false positive,
//     since the alternative leaks Secrets. Block scalars (key: |) under data:
//     are left alone: kubectl never writes Secret data that way.
//   - Values on the lines after their name (blocks.go), each started by the
//     assignment rule at a name it has already found, so other lines pay
//     nothing: a YAML block scalar (password: |, token: >-, after a list
//     dash or a tag; not !vault) whose name starts its line takes every
//     line indented past the name's column, blank lines included, and each
//     keeps its indentation and line end with its content replaced by the
//     marker (the line count stays); a placeholder line stays, a PEM
//     header hands over to the private-key machine, and the block ends at
//     10,000 lines or 1 MiB. A pretty-printed JSON object whose "Name",
//     "Key" or "keyName" member, alone on its line, is secret-like (aws
//     ssm get-parameter, container env lists) has its "Value" member at
//     the same indentation redacted, within 64 lines and the object. A
//     Terraform random_password resource (terraform plan, state show) has
//     the strings of its result and bcrypt_hash redacted up to its
//     closing brace.
//   - Lines longer than 64 KiB without a newline: all but the last 16 KiB are
//     emitted, moving the cut before any secret that touches it, before a
//     PEM header whose key may follow on the next lines, and off any escape
//     sequence (one not finished yet is held whole), and at most about 1 MiB
//     is held; past that the span is emitted redacted and the rest of its
//     non-space run is dropped. Long lines never turn block detection off.
//     A header that ends a long line starts the body state when the line
//     ends, however long the line and whichever write brings its newline,
//     also when the header was emitted by force with only blanks after it.
//     A key body line longer than 64 KiB is decided on its first 64 KiB,
//     all the long-line path may hold: the base64 run that reaches that far
//     is key material however long it is (the marker on the first body
//     line, nothing on later ones), what follows it on the line is redacted
//     as a piece of its own, and the line keeps its newline, since the
//     long-line path cannot take back a line it has started to write; a
//     complete line in one write is treated the same way, so the output
//     does not depend on the write sizes.
//
// # Parallel writers
//
// A Writer with one worker redacts on the caller's goroutine: when Write
// returns, every complete line has reached dst. A Writer with more than one
// worker (the default when GOMAXPROCS > 1) splits its input into line-aligned
// regions (256 KiB by default), redacts them on worker goroutines assuming no
// multi-line state is open at the region start, and writes results to dst in
// order from one committer goroutine. The committer knows the true state:
// when a region starts inside any multi-line state, its speculative
// result is discarded and the region is redacted again, sequentially, with the
// real state. Long lines are always handled by the committer. In-flight
// regions are bounded, so Write blocks (backpressure) when redaction cannot
// keep up; nothing is ever dropped.
//
// # What it does not catch
//
// A secret with no recognisable shape, name or context stays: a bare
// password on its own line, `curl -u user:password` without a scheme, the
// output of `kubectl get secret -o jsonpath='{.data.x}'` or of base64 -d. A
// token glued to a preceding letter or digit (xghp_...) fails the left
// boundary check on purpose, unless that byte ends an escape: after a
// percent-encoded byte (Bearer%20ghp_..., %3D, %2F, %22, %253D) or a
// backslash escape (\n, \t, \r, \uXXXX) a token is found as after a space.
// Placeholders (********, <password>, ${VAR}, changeme), code (cfg.Password,
// getToken(), os.environ["X"], password: str) and plain-word prose after a
// name at the start of a line (auth: retry failed logins) stay on purpose,
// and so do a value of plain words after a name that is no password's
// (secret: correct horse battery), an unquoted value after a name in the
// middle of a line past its first blank (level=info password=a b: only a),
// a value on the lines after its name other than those above (a block
// scalar behind a diff's + or a grep prefix, a YAML env list's value:
// under - name: DB_PASSWORD), a bare
// token of a vendor whose shape rules.go does not list, and a .pgpass line
// whose port is not 5432 or *. Team rules, extra variable names and the
// environment rule exist for the rest.
//
// # Failure
//
// If redaction panics or hits an internal error, the Writer writes a single
// line "[REDACTED:redactor-failed]" (preceded by a newline if the last byte
// written was not one), never writes another byte to dst, and returns an error
// wrapping ErrRedactorFailed from Write, Flush and Close.
package redact
