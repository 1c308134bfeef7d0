package mcpserver

import (
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
)

// inputSchema is In's input schema as the SDK would infer it, with every
// type plain: a Go slice or pointer is inferred as the union
// ["null","array"], and generic clients convert their arguments by the
// schema's type (the MCP Inspector asks type === "array"), so a union
// leaves them unable to pass the argument at all. An argument left out is
// how a client says "none"; null is never needed.
func inputSchema[In any]() *jsonschema.Schema {
	s, err := jsonschema.For[In](nil)
	if err != nil {
		panic("mcpserver: input schema: " + err.Error()) // a programming error, caught by every test
	}
	plainTypes(s)
	return s
}

// plainTypes replaces a ["null", T] union with T, in s and below it.
func plainTypes(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) > 0 {
		types := slices.DeleteFunc(slices.Clone(s.Types), func(t string) bool { return t == "null" })
		if len(types) == 1 {
			s.Type, s.Types = types[0], nil
		} else {
			s.Types = types
		}
	}
	for _, p := range s.Properties {
		plainTypes(p)
	}
	plainTypes(s.Items)
}
