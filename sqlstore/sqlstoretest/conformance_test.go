package sqlstoretest_test

import (
	"testing"

	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/auth/storetest"
)

// testConformance runs the SDK's conformance suite of auth.Store and the
// sharing interfaces, every subtest on a Store of one shared database, as
// replicas would have.
func testConformance(t *testing.T, e engine) {
	s, _ := e.newStore(t)
	storetest.Run(t, func(*testing.T) auth.Store { return s })
}
