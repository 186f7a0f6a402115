package main

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run if any test leaves a goroutine behind: a refresh
// or mint that never ends, a connection never closed.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
