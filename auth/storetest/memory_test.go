package storetest_test

import (
	"testing"

	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/auth/storetest"
)

func TestMemoryStore(t *testing.T) {
	storetest.Run(t, func(*testing.T) auth.Store { return auth.NewMemoryStore() })
}
