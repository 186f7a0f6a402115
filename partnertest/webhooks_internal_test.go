package partnertest

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"testing/synctest"
	"time"
)

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// A receiver that never answers fails the delivery after DeliveryTimeout.
func TestDeliveryTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := NewServer(WithInMemoryNetwork())
		defer srv.Close()
		srv.delivery = &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			<-r.Context().Done()
			return nil, r.Context().Err()
		})}
		org := srv.AddOrganization("", "")
		p := srv.AddProject(org.ID, Project{Name: "Web", Slug: "web", SourceLanguage: "en"})
		wh := srv.AddWebhook(p.ID, "http://receiver.invalid/hooks")
		start := time.Now()
		d, err := srv.Deliver(t.Context(), wh.ID, "keys.created", nil)
		if !errors.Is(err, context.DeadlineExceeded) || d.Status != 0 {
			t.Errorf("Deliver = %+v, %v; want a deadline error", d, err)
		}
		if got := time.Since(start); got != DeliveryTimeout {
			t.Errorf("gave up after %v, want %v", got, DeliveryTimeout)
		}
	})
}

func TestFirstChars(t *testing.T) {
	for _, tt := range []struct {
		in   string
		n    int
		want string
	}{
		{"", 3, ""},
		{"abc", 3, "abc"},
		{"abcd", 3, "abc"},
		{"éééé", 2, "éé"},
		{"a\xffb", 2, "a\xff"},
	} {
		if got := firstChars([]byte(tt.in), tt.n); got != tt.want {
			t.Errorf("firstChars(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}
