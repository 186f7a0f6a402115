package otel_test

import (
	"context"
	"testing"

	"github.com/locsvc/partner-go/hooks"
)

// TestScanFindsASecret: the scan every test ends with reports a token
// and a query that reach an attribute.
func TestScanFindsASecret(t *testing.T) {
	r := newRigOn(t)
	ctx := r.hooks.CallStart(context.Background(), hooks.Call{Kind: hooks.Raw, Service: "Client", Method: "HTTPClient", Path: "/x?access_token=pt_at_1"})
	r.hooks.CallEnd(ctx, hooks.Call{Kind: hooks.Raw, Outcome: hooks.OK})
	found := r.scan(t)
	if len(found) != 2 || found[0] != "pt_at_" || found[1] != "?" {
		t.Errorf("scan found %q, want the access token's prefix and the query", found)
	}
	r.spans.Reset()
}
