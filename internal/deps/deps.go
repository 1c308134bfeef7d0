// Package deps keeps modules that work in progress is about to use in
// go.mod across go mod tidy. Nothing imports it; it goes once they are
// used for real.
package deps

import (
	_ "github.com/modelcontextprotocol/go-sdk/mcp"
	_ "github.com/spf13/cobra/doc"
	_ "mvdan.cc/sh/v3/syntax"
)
