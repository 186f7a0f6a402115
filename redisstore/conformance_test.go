package redisstore_test

import (
	"testing"

	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/auth/storetest"
	"github.com/locsvc/partner-go/redisstore"
)

// TestConformance runs the SDK's Store conformance suite on a Store in
// front of a MemoryStore, all subtests sharing one redis-server.
func TestConformance(t *testing.T) {
	rdb := newClient(t)
	storetest.Run(t, func(t *testing.T) auth.Store {
		return redisstore.New(rdb, auth.NewMemoryStore())
	})
}
