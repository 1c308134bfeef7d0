package explain

// tuningRankCases are tuning runs of tools that report one failure in many
// lines of equal weight (a package manager's block of "npm error" lines, a
// chain of "Caused by:" reasons), where the line that names the conflict
// is not the first, and a second tool that says "timed out": the ranking
// by how specific a line is, and the term, are tuned on these.
func tuningRankCases() []corpusCase {
	healthcheck := `#!/bin/sh
# A deploy step: start the api, wait for its socket, ask it for /health.
python3 -c '
import socket, time
s = socket.socket(socket.AF_UNIX)
s.bind("api.sock")
s.listen(1)
open("api.ready", "w").close()
time.sleep(10)
' &
api=$!
while [ ! -e api.ready ]; do sleep 0.05; done
echo "deploy: release 2.4.1 staged on api-blue"
echo "deploy: waiting for api-blue to answer /health"
curl -sS --max-time 1 --unix-socket api.sock http://api-blue/health
status=$?
kill $api
echo "deploy: api-blue did not become healthy (curl exit $status); keeping 2.4.0 live"
exit 1
`
	return []corpusCase{
		{
			name: "npm install: a peer dependency conflict under strict-peer-deps", tools: []string{"npm"},
			files: map[string]string{
				".npmrc":                        "strict-peer-deps=true\ninstall-links=true\n",
				"package.json":                  `{"name":"dashboard","version":"1.4.0","private":true,"dependencies":{"ui-kit":"file:vendor/ui-kit","ui-charts":"file:vendor/ui-charts"}}` + "\n",
				"vendor/ui-kit/package.json":    `{"name":"ui-kit","version":"2.3.0"}` + "\n",
				"vendor/ui-charts/package.json": `{"name":"ui-charts","version":"1.0.0","peerDependencies":{"ui-kit":"^1.0.0"}}` + "\n",
			},
			argv: []string{"npm", "install"}, want: `peer ui-kit@"^1.0.0" from ui-charts@1.0.0`,
		},
		{
			name: "npm ci: a project without a lockfile", tools: []string{"npm"},
			files: map[string]string{"package.json": `{"name":"reports","version":"0.3.0","private":true,"scripts":{"test":"node test.js"}}` + "\n"},
			argv:  []string{"npm", "ci"}, want: "The `npm ci` command can only install with an existing package-lock.json",
		},
		{
			name: "cargo build: a path dependency whose folder is missing", tools: []string{"cargo"},
			files: map[string]string{
				"app/Cargo.toml":  "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\nledger-core = { path = \"../ledger-core\" }\n",
				"app/src/main.rs": "fn main() {\n    println!(\"ledger\");\n}\n",
			},
			dir: "app", argv: []string{"cargo", "build", "--offline"}, want: "ledger-core/Cargo.toml`",
		},
		{
			name: "curl: a deploy health check that times out", tools: []string{"curl", "python3", "sh"},
			files: map[string]string{"healthcheck.sh": healthcheck},
			argv:  []string{"sh", "healthcheck.sh"}, want: "curl: (28) Operation timed out after",
		},
	}
}
