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
// Three kinds of state cross lines:
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
//     followed the same way.
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
//   - Lines longer than 64 KiB without a newline: all but the last 16 KiB are
//     emitted, moving the cut before any secret that touches it, and at most
//     about 1 MiB is held; past that the span is emitted redacted and the rest
//     of its non-space run is dropped.
//
// # Parallel writers
//
// A Writer with one worker redacts on the caller's goroutine: when Write
// returns, every complete line has reached dst. A Writer with more than one
// worker (the default when GOMAXPROCS > 1) splits its input into line-aligned
// regions (256 KiB by default), redacts them on worker goroutines assuming no
// multi-line state is open at the region start, and writes results to dst in
// order from one committer goroutine. The committer knows the true state:
// when a region starts inside a PEM block or a data: block, its speculative
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
// Team rules, extra variable names and the environment rule exist for the
// rest.
//
// # Failure
//
// If redaction panics or hits an internal error, the Writer writes a single
// line "[REDACTED:redactor-failed]" (preceded by a newline if the last byte
// written was not one), never writes another byte to dst, and returns an error
// wrapping ErrRedactorFailed from Write, Flush and Close.
package redact
