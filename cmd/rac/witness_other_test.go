//go:build !linux

package main

import "testing"

// waitWitness: off Linux rac starts no signal witness (see
// docs/guarantees.md), so there is nothing to wait for.
func waitWitness(t *testing.T, rac int) { t.Helper() }
