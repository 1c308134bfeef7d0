package app

// Version is rac's version, the one both programs (rac and rac-mcp) report
// and every recording's meta.json keeps: set at build time with
// -ldflags "-X github.com/rac-cli/rac/internal/app.Version=...".
var Version = "0.1.0-dev"
