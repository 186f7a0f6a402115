package webhook

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run if a test leaves a goroutine behind, such as a
// handler still running after its test server closed.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
