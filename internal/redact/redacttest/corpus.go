// Package redacttest holds fixtures for redaction tests and benchmarks: never
// imported by production code.
package redacttest

import (
	"math/rand/v2"
	"strconv"
)

// MixedCorpus returns about size bytes of realistic command output for
// benchmarks: git log -p, JSON logs, compiler and test output, kubectl YAML
// (with an occasional Secret), environment dumps, curl -v traces, and a few
// fake secrets sprinkled in. It is deterministic for a seed and ends at a
// line end; its length is at most size.
//
// The fake secrets are assembled here at run time; no token-shaped text is
// stored in the source.
func MixedCorpus(size int, seed int64) []byte {
	g := &corpusGen{
		rng: rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15)),
		b:   make([]byte, 0, size+64<<10),
	}
	for len(g.b) < size {
		switch n := g.rng.IntN(100); {
		case n < 26:
			g.gitLog()
		case n < 48:
			g.jsonLogs()
		case n < 68:
			g.goTest()
		case n < 82:
			g.kubectl()
		case n < 90:
			g.envDump()
		case n < 96:
			g.curlTrace()
		default:
			g.secrets()
		}
	}
	b := g.b[:size]
	for len(b) > 0 && b[len(b)-1] != '\n' {
		b = b[:len(b)-1]
	}
	return b
}

type corpusGen struct {
	rng *rand.Rand
	b   []byte
}

const (
	hexDigits = "0123456789abcdef"
	alnumSeq  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	upperNum  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	b64Chars  = alnumSeq + "+/"
)

var (
	corpusNames = []string{"Jane Doe", "Ana Lima", "Wei Zhang", "Olu Adeyemi", "Priya Raman", "Tom Becker", "Sam O'Neil"}
	corpusWords = []string{
		"fix", "add", "config", "loader", "retry", "handler", "cache", "token", "refresh", "parse",
		"session", "timeout", "client", "server", "build", "release", "update", "deps", "test", "flaky",
		"auth", "middleware", "secret", "rotation", "metrics", "export", "logging", "error", "path", "window",
	}
	corpusIdents = []string{
		"ctx", "err", "cfg", "req", "resp", "buf", "n", "opts", "tokenSource", "client", "store",
		"cache", "authHeader", "sessionID", "userName", "limit", "offset", "path", "keyFile",
	}
	corpusPaths = []string{
		"internal/auth/token.go", "internal/store/cache.go", "cmd/server/main.go", "pkg/api/handler.go",
		"internal/config/load.go", "internal/session/secret_test.go", "web/src/App.tsx", "scripts/release.sh",
	}
	corpusMsgs = []string{
		"request completed", "cache miss", "token refreshed", "retrying request", "connection closed",
		"session created", "config loaded", "upstream timeout", "user authenticated", "slow query",
	}
	corpusImages = []string{"nginx:1.25.3", "ghcr.io/acme/web:v2.14.0", "postgres:16.2-alpine", "redis:7.2.4", "busybox:1.36"}
)

func (g *corpusGen) s(s string) { g.b = append(g.b, s...) }

func (g *corpusGen) pick(list []string) string { return list[g.rng.IntN(len(list))] }

func (g *corpusGen) rand(alphabet string, n int) {
	for range n {
		g.b = append(g.b, alphabet[g.rng.IntN(len(alphabet))])
	}
}

func (g *corpusGen) num(n int) { g.b = strconv.AppendInt(g.b, int64(n), 10) }

func (g *corpusGen) uuid() {
	g.rand(hexDigits, 8)
	g.s("-")
	g.rand(hexDigits, 4)
	g.s("-4")
	g.rand(hexDigits, 3)
	g.s("-a")
	g.rand(hexDigits, 3)
	g.s("-")
	g.rand(hexDigits, 12)
}

func (g *corpusGen) sentence(words int) {
	for i := range words {
		if i > 0 {
			g.s(" ")
		}
		g.s(g.pick(corpusWords))
	}
}

func (g *corpusGen) gitLog() {
	for range 1 + g.rng.IntN(3) {
		g.s("commit ")
		g.rand(hexDigits, 40)
		g.s("\nAuthor: ")
		name := g.pick(corpusNames)
		g.s(name)
		g.s(" <dev")
		g.num(g.rng.IntN(100))
		g.s("@example.com>\nDate:   Mon Mar 4 1")
		g.num(g.rng.IntN(10))
		g.s(":0")
		g.num(g.rng.IntN(10))
		g.s(":31 2024 +0100\n\n    ")
		g.sentence(3 + g.rng.IntN(6))
		g.s("\n\n")
		path := g.pick(corpusPaths)
		g.s("diff --git a/" + path + " b/" + path + "\nindex ")
		g.rand(hexDigits, 7)
		g.s("..")
		g.rand(hexDigits, 7)
		g.s(" 100644\n--- a/" + path + "\n+++ b/" + path + "\n")
		for range 1 + g.rng.IntN(3) {
			g.gitHunk()
		}
		g.s("\n")
	}
}

// gitHunk writes one hunk of a diff: its header and 6 to 15 changed or
// context lines of Go.
func (g *corpusGen) gitHunk() {
	g.s("@@ -")
	g.num(10 + g.rng.IntN(300))
	g.s(",7 +")
	g.num(10 + g.rng.IntN(300))
	g.s(",8 @@ func ")
	g.s(g.pick(corpusIdents))
	g.s("(ctx context.Context) error {\n")
	for range 6 + g.rng.IntN(10) {
		switch g.rng.IntN(3) {
		case 0:
			g.s(" ")
		case 1:
			g.s("-")
		default:
			g.s("+")
		}
		g.s("\t")
		switch g.rng.IntN(6) {
		case 0:
			g.s("if err != nil {\n")
			continue
		case 1:
			g.s(`return fmt.Errorf("` + g.pick(corpusWords) + ` ` + g.pick(corpusWords) + `: %w", err)` + "\n")
			continue
		case 2:
			g.s(g.pick(corpusIdents) + " := " + g.pick(corpusIdents) + "." + g.pick(corpusIdents) + "(ctx)\n")
			continue
		case 3:
			g.s("// " + g.pick(corpusWords) + " the " + g.pick(corpusWords) + " before " + g.pick(corpusWords) + "\n")
			continue
		case 4:
			g.s("Token: cfg.Token,\n")
			continue
		}
		g.s("}\n")
	}
}

func (g *corpusGen) jsonLogs() {
	for range 5 + g.rng.IntN(20) {
		g.s(`{"level":"`)
		g.s([]string{"info", "info", "debug", "warn", "error"}[g.rng.IntN(5)])
		g.s(`","ts":"2024-05-0`)
		g.num(1 + g.rng.IntN(9))
		g.s(`T12:`)
		g.num(10 + g.rng.IntN(50))
		g.s(`:`)
		g.num(10 + g.rng.IntN(50))
		g.s(`.`)
		g.num(100 + g.rng.IntN(900))
		g.s(`Z","logger":"http","msg":"`)
		g.s(g.pick(corpusMsgs))
		g.s(`","method":"GET","path":"/api/v1/users/`)
		g.num(g.rng.IntN(100000))
		g.s(`","status":`)
		g.num([]int{200, 200, 201, 204, 304, 404, 500}[g.rng.IntN(7)])
		g.s(`,"latency_ms":`)
		g.num(g.rng.IntN(900))
		g.s(`,"request_id":"`)
		g.uuid()
		g.s(`","max_tokens":1024,"token_count":`)
		g.num(g.rng.IntN(4000))
		g.s(`,"user_agent":"Mozilla/5.0 (X11; Linux x86_64)"}` + "\n")
	}
}

func (g *corpusGen) goTest() {
	pkg := "github.com/acme/" + g.pick(corpusWords) + "/internal/" + g.pick(corpusWords)
	for range 3 + g.rng.IntN(12) {
		name := "Test" + g.pick(corpusIdents)
		g.s("=== RUN   " + name + "\n")
		if g.rng.IntN(6) == 0 {
			g.s("    " + g.pick(corpusPaths) + ":")
			g.num(g.rng.IntN(400))
			g.s(": got ")
			g.num(g.rng.IntN(10))
			g.s(", want ")
			g.num(g.rng.IntN(10))
			g.s("\n--- FAIL: " + name + " (0.0")
		} else {
			g.s("--- PASS: " + name + " (0.0")
		}
		g.num(g.rng.IntN(10))
		g.s("s)\n")
	}
	if g.rng.IntN(3) == 0 {
		g.s("# " + pkg + "\n./" + g.pick(corpusPaths) + ":")
		g.num(g.rng.IntN(300))
		g.s(":")
		g.num(g.rng.IntN(40))
		g.s(": undefined: " + g.pick(corpusIdents) + "\n")
	}
	g.s("ok  \t" + pkg + "\t0.")
	g.num(100 + g.rng.IntN(900))
	g.s("s\tcoverage: 7")
	g.num(g.rng.IntN(10))
	g.s(".1% of statements\n")
}

func (g *corpusGen) kubectl() {
	if g.rng.IntN(12) == 0 {
		g.s("apiVersion: v1\ndata:\n")
		for _, k := range []string{"password", "username", "api-key"} {
			g.s("  " + k + ": ")
			g.rand(b64Chars, 4*(3+g.rng.IntN(8)))
			g.s("\n")
		}
		g.s("kind: Secret\nmetadata:\n  name: db-credentials\n  namespace: default\ntype: Opaque\n")
		return
	}
	g.s("apiVersion: v1\nitems:\n")
	for range 1 + g.rng.IntN(3) {
		app := g.pick(corpusWords)
		g.s("- apiVersion: v1\n  kind: Pod\n  metadata:\n    creationTimestamp: \"2024-05-01T10:00:00Z\"\n")
		g.s("    generateName: " + app + "-")
		g.rand(hexDigits, 9)
		g.s("-\n    labels:\n      app: " + app + "\n      pod-template-hash: ")
		g.rand(hexDigits, 9)
		g.s("\n    name: " + app + "-")
		g.rand(hexDigits, 9)
		g.s("-")
		g.rand("bcdfghjklmnpqrstvwxz2456789", 5)
		g.s("\n    namespace: default\n    resourceVersion: \"")
		g.num(100000 + g.rng.IntN(900000))
		g.s("\"\n    uid: ")
		g.uuid()
		g.s("\n  spec:\n    containers:\n    - image: " + g.pick(corpusImages) + "\n      name: " + app)
		g.s("\n      env:\n      - name: DB_PASSWORD\n        valueFrom:\n          secretKeyRef:\n            key: password\n            name: db-credentials\n")
		g.s("      ports:\n      - containerPort: 8080\n        protocol: TCP\n  status:\n    phase: Running\n    podIP: 10.244.")
		g.num(g.rng.IntN(255))
		g.s(".")
		g.num(g.rng.IntN(255))
		g.s("\n")
	}
	g.s("kind: List\nmetadata:\n  resourceVersion: \"\"\n")
}

func (g *corpusGen) envDump() {
	g.s("HOME=/home/dev\nSHELL=/bin/bash\nLANG=en_US.UTF-8\nPATH=/usr/local/go/bin:/home/dev/go/bin:/usr/local/bin:/usr/bin:/bin\n")
	g.s("GOPATH=/home/dev/go\nTERM=xterm-256color\nTOKENIZERS_PARALLELISM=false\nSSH_AUTH_SOCK=/tmp/ssh-")
	g.rand(alnumSeq, 10)
	g.s("/agent.")
	g.num(1000 + g.rng.IntN(9000))
	g.s("\nGIT_AUTHOR_NAME=" + g.pick(corpusNames) + "\nKUBECONFIG=/home/dev/.kube/config\nEDITOR=vim\nPWD=/home/dev/src/app\n")
	if g.rng.IntN(4) == 0 {
		g.s("GH_TOKEN=gh" + "p_")
		g.rand(alnumSeq, 36)
		g.s("\nAWS_SECRET_ACCESS_KEY=")
		g.rand(b64Chars, 40)
		g.s("\n")
	}
}

func (g *corpusGen) curlTrace() {
	g.s("*   Trying 93.184.216.34:443...\n* Connected to api.example.com (93.184.216.34) port 443\n")
	g.s("> GET /v1/items?page=2 HTTP/2\n> Host: api.example.com\n> User-Agent: curl/8.5.0\n> Accept: */*\n")
	if g.rng.IntN(3) == 0 {
		g.s("> Authorization: Bearer ")
		g.rand(alnumSeq, 32)
		g.s("\n")
	}
	g.s(">\n< HTTP/2 200\n< content-type: application/json\n< date: Wed, 01 May 2024 10:00:00 GMT\n")
	g.s(`{"items":[{"id":"`)
	g.uuid()
	g.s(`","name":"widget","url":"http://localhost:8080/items/1"}],"next":"/v1/items?page=3"}` + "\n")
}

func (g *corpusGen) secrets() {
	switch g.rng.IntN(6) {
	case 0:
		g.s("origin\thttps://x-access-token:gh" + "s_")
		g.rand(alnumSeq, 36)
		g.s("@github.com/acme/app.git (fetch)\n")
	case 1:
		g.s("aws_access_key_id = AK" + "IA")
		g.rand(upperNum, 16)
		g.s("\n")
	case 2:
		g.s("-----BEGIN RSA PRIVATE" + " KEY-----\n")
		for range 6 {
			g.rand(b64Chars, 64)
			g.s("\n")
		}
		g.s("-----END RSA PRIVATE" + " KEY-----\n")
	case 3:
		g.s(`{"msg":"login","session_token":"`)
		g.rand(alnumSeq, 40)
		g.s("\"}\n")
	case 4:
		g.s("export SLACK_BOT_TOKEN=xox" + "b-")
		g.num(100000000 + g.rng.IntN(800000000))
		g.s("-")
		g.rand(alnumSeq, 24)
		g.s("\n")
	default:
		g.s("DATABASE_URL=postgres://app:")
		g.rand(alnumSeq, 20)
		g.s("@db.internal:5432/app\n")
	}
}

// GitLogCorpus returns about size bytes of `git log`-shaped text: a commit
// line, an "Author: Name <email>" line, a Date line and an indented message
// line for every commit, so a quarter of the lines start with Author. It is
// deterministic for a seed, ends at a line end, holds no secret and is at
// most size long. Benchmarks compare it with the same text where Author is
// replaced by a word no rule knows.
func GitLogCorpus(size int, seed int64) []byte {
	g := &corpusGen{
		rng: rand.New(rand.NewPCG(uint64(seed), 0x2545f4914f6cdd1d)),
		b:   make([]byte, 0, size+1024),
	}
	for len(g.b) < size {
		g.s("commit ")
		g.rand(hexDigits, 40)
		g.s("\nAuthor: ")
		g.s(g.pick(corpusNames))
		g.s(" <dev")
		g.num(g.rng.IntN(100))
		g.s("@example.com>\nDate:   ")
		g.s([]string{"Mon", "Tue", "Wed", "Thu", "Fri"}[g.rng.IntN(5)])
		g.s(" Mar ")
		g.num(1 + g.rng.IntN(28))
		g.s(" 1")
		g.num(g.rng.IntN(10))
		g.s(":")
		g.num(10 + g.rng.IntN(50))
		g.s(":")
		g.num(10 + g.rng.IntN(50))
		g.s(" 2024 +0100\n    ")
		g.sentence(3 + g.rng.IntN(6))
		g.s("\n")
	}
	b := g.b[:size]
	for len(b) > 0 && b[len(b)-1] != '\n' {
		b = b[:len(b)-1]
	}
	return b
}
