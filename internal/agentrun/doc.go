// Package agentrun reads a headless agent harness's event stream (Claude
// Code's -p --output-format stream-json, Codex's exec --json, Gemini
// CLI's --output-format stream-json) out of a recording: it recognises
// the stream from its own frames, decodes the frames into a bounded
// digest of what the agent did (model, cost and usage, tool calls paired
// with their results, the failure, the final text, the files it wrote)
// and renders frames reduced for people (long string leaves cut, the
// init frame reduced to a whitelist, string values decoded).
//
// It owns the bounds of that digest and states every cut it makes. It
// reads stored bytes and never writes them: the recording keeps the
// stream as printed. Every string it lifts out of a frame passes through
// the caller's redactor before it is kept, and it never prints, colours,
// imports cobra, viper, color, ui or app, or touches os.Stdout.
package agentrun
