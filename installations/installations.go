package installations

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/transport"
)

// Prefix starts every installation token the service issues.
const Prefix = "svc_oat_"

// DefaultLifetime is assumed when the service does not say when a token
// expires (the spec gives one hour).
const DefaultLifetime = time.Hour

// MaxLifetime caps the lifetime an answer may promise in expiresIn: a
// larger value (or one that would overflow) is taken as this.
const MaxLifetime = 24 * time.Hour

// Token is a minted installation token.
type Token struct {
	// Token is the bearer token itself. Treat it as a secret.
	Token string
	// ExpiresAt is when it expires: as the service said, or one hour from
	// when it was received.
	ExpiresAt time.Time
	// Raw is the whole answer as the service sent it. It holds the token.
	Raw json.RawMessage
}

// String returns a description without the token itself, so that
// printing a Token (or a slice of them) shows no secret.
func (t Token) String() string {
	return fmt.Sprintf("installation token (expires %s)", t.ExpiresAt.Format(time.RFC3339))
}

// GoString is String, so %#v shows no secret either.
func (t Token) GoString() string { return t.String() }

// Service calls the installation-token endpoint. Get one from
// partner.Client.Installations.
type Service struct {
	r      *transport.Runner
	access transport.TokenSource
}

// New returns a Service that sends requests through r, authorised by the
// grant's access token. It is meant for package partner.
func New(r *transport.Runner, access transport.TokenSource) *Service {
	return &Service{r: r, access: access}
}

// tokenWire holds the field-name variants the spec leaves open.
type tokenWire struct {
	Token              string          `json:"token"`
	InstallationToken  string          `json:"installationToken"`
	InstallationToken2 string          `json:"installation_token"`
	AccessToken        string          `json:"access_token"`
	ExpiresAt          string          `json:"expiresAt"`
	ExpiresAt2         string          `json:"expires_at"`
	ExpiresIn          json.RawMessage `json:"expiresIn"`
	ExpiresIn2         json.RawMessage `json:"expires_in"`
}

// CreateToken mints a new installation token for grantID (endpoint 8,
// POST /api/oauth-client/installations/<grantID>/tokens, with the access
// token as Bearer).
func (s *Service) CreateToken(ctx context.Context, grantID string) (*Token, error) {
	id, err := transport.PathParam("grantID", grantID)
	if err != nil {
		return nil, err
	}
	path := "/api/oauth-client/installations/" + id + "/tokens"
	data, err := s.r.Do(ctx, http.MethodPost, path, s.access, nil)
	if err != nil {
		return nil, err
	}
	received := time.Now()
	var w tokenWire
	if err := transport.Decode(http.MethodPost, path, data, &w); err != nil {
		return nil, err
	}
	raw := json.RawMessage(data)
	if firstOf(w.Token, w.InstallationToken, w.InstallationToken2, w.AccessToken) == "" {
		if inner := transport.Envelope(data, "data", "installation"); inner != nil {
			if err := transport.Decode(http.MethodPost, path, inner, &w); err != nil {
				return nil, err
			}
			raw = inner
		}
	}
	t := &Token{
		Token: firstOf(w.Token, w.InstallationToken, w.InstallationToken2, w.AccessToken),
		Raw:   raw,
	}
	if t.Token == "" {
		return nil, fmt.Errorf("POST %s: %w: no token in the answer", path, apierr.ErrUnexpectedResponse)
	}
	if t.ExpiresAt, err = expiry(w, received); err != nil {
		return nil, fmt.Errorf("POST %s: %w: %v", path, apierr.ErrUnexpectedResponse, err)
	}
	if !strings.HasPrefix(t.Token, Prefix) {
		if l := s.r.Logger(); l != nil {
			l.LogAttrs(ctx, slog.LevelWarn, "partner: installation token without the "+Prefix+" prefix",
				slog.String("grant", grantID))
		}
	}
	return t, nil
}

func firstOf(v ...string) string {
	for _, s := range v {
		if s != "" {
			return s
		}
	}
	return ""
}

// expiry reads expiresAt/expires_at (RFC 3339) or expiresIn/expires_in
// (seconds, number or numeric string); with none it is one hour.
func expiry(w tokenWire, received time.Time) (time.Time, error) {
	if at := firstOf(w.ExpiresAt, w.ExpiresAt2); at != "" {
		t, err := time.Parse(time.RFC3339, at)
		if err != nil {
			return time.Time{}, fmt.Errorf("expiry %q is not RFC 3339", at)
		}
		return t, nil
	}
	for _, in := range []json.RawMessage{w.ExpiresIn, w.ExpiresIn2} {
		if len(in) == 0 || string(in) == "null" {
			continue
		}
		var n json.Number
		if err := json.Unmarshal(in, &n); err != nil {
			var s string
			if json.Unmarshal(in, &s) != nil {
				return time.Time{}, fmt.Errorf("expires_in %.20s is not a number", in)
			}
			n = json.Number(s)
		}
		secs, err := n.Float64()
		if err != nil || secs <= 0 {
			return time.Time{}, fmt.Errorf("expires_in %q is not a positive number", n)
		}
		if secs > MaxLifetime.Seconds() {
			return received.Add(MaxLifetime), nil
		}
		return received.Add(time.Duration(secs * float64(time.Second))), nil
	}
	return received.Add(DefaultLifetime), nil
}
