package partner

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/tokens"
	"github.com/locsvc/partner-go/internal/transport"
)

// installationTokenPrefix starts every installation token the service
// issues; a token without it is used, with a warning in the log.
const installationTokenPrefix = "svc_oat_"

// Installation-token lifetimes the SDK assumes: one hour when the mint
// answer does not say (the service's tokens live one hour), and at most a
// day whatever expires_in promises (a larger value, or one that would
// overflow, is taken as a day).
const defaultInstallationLifetime, maxInstallationLifetime = time.Hour, 24 * time.Hour

// InstallationToken is a minted installation token and what the mint
// answer said about the grant.
type InstallationToken struct {
	// Token is the bearer token itself. Treat it as a secret: it is left
	// out when the InstallationToken is printed.
	Token          string
	ExpiresAt      time.Time       // as the service said, or one hour from when it was received
	OrganizationID string          // the grant's organization, when the answer says it
	ProjectIDs     []string        // the projects the grant covers; empty means all of the organization's
	Scopes         []string        // the scopes granted, when the answer says them
	Raw            json.RawMessage // the whole answer as the service sent it; it holds the token
}

// String returns a description without the token itself, so that
// printing an InstallationToken (or a slice of them) shows no secret.
func (t InstallationToken) String() string {
	return fmt.Sprintf("partner.InstallationToken{ExpiresAt: %s, OrganizationID: %q, ProjectIDs: %q, Scopes: %q}",
		t.ExpiresAt.Format(time.RFC3339), t.OrganizationID, t.ProjectIDs, t.Scopes)
}

// Format prints String for every verb, so %+v and %#v show no secret either.
func (t InstallationToken) Format(f fmt.State, _ rune) { fmt.Fprint(f, t.String()) }

// LogValue makes slog log the token's description, never the token.
func (t InstallationToken) LogValue() slog.Value { return slog.StringValue(t.String()) }

// InstallationsService mints the grant's installation tokens by hand: the
// client mints by itself whenever a token is missing or about to expire.
// Get it from Client.Installations.
type InstallationsService service

// CreateToken mints a new installation token for the client's grant now
// (POST /api/oauth-client/installations/<grant>/tokens, with the access
// token as Bearer), and makes it the token the client's calls use. A mint
// is audited and rate-limited by the service: the client mints by itself
// when needed, so call this only to learn what a fresh mint says (say,
// the scopes after the user re-authorized). A call while a mint is in
// progress returns that mint's token.
func (s *InstallationsService) CreateToken(ctx context.Context) (*InstallationToken, error) {
	m, err := s.c.install.Renew(ctx)
	if err != nil {
		return nil, public(err)
	}
	t := *m.Detail.(*InstallationToken)
	t.ExpiresAt = m.Expiry
	return &t, nil
}

// mintTokenWire holds the field names a mint answer may use: camelCase,
// snake_case, and the token under any of four names.
type mintTokenWire struct {
	Token              string          `json:"token"`
	InstallationToken  string          `json:"installationToken"`
	InstallationToken2 string          `json:"installation_token"`
	AccessToken        string          `json:"access_token"`
	ExpiresAt          string          `json:"expiresAt"`
	ExpiresAt2         string          `json:"expires_at"`
	ExpiresIn          json.RawMessage `json:"expiresIn"`
	ExpiresIn2         json.RawMessage `json:"expires_in"`
	OrganizationID     string          `json:"organization_id"`
	OrganizationID2    string          `json:"organizationId"`
	ProjectIDs         []string        `json:"project_ids"`
	ProjectIDs2        []string        `json:"projectIds"`
	Scopes             json.RawMessage `json:"scopes"`
}

func (w *mintTokenWire) token() string {
	return cmp.Or(w.Token, w.InstallationToken, w.InstallationToken2, w.AccessToken)
}

// mint mints an installation token for the client's grant; it is the grant's
// tokens.MintFunc.
func (c *Client) mint(ctx context.Context) (tokens.Minted, error) {
	path := "/api/oauth-client/installations/" + url.PathEscape(c.grantID) + "/tokens"
	data, err := c.do(ctx, transport.Request{Method: http.MethodPost, Path: path, Auth: c.access, Kind: transport.Credential, Setting: c.sh.baseSetting, Op: "Installations.Mint"})
	if err != nil {
		return tokens.Minted{}, err
	}
	t, err := parseMint(c.fullPath(path), data, time.Now())
	if err != nil {
		return tokens.Minted{}, err
	}
	if l := c.sh.logger; l != nil && !strings.HasPrefix(t.Token, installationTokenPrefix) {
		l.LogAttrs(ctx, slog.LevelWarn, "partner: installation token without the "+installationTokenPrefix+" prefix",
			slog.String("grant", c.grantID))
	}
	c.lastMint.Store(&InstallationToken{ExpiresAt: t.ExpiresAt, OrganizationID: t.OrganizationID,
		ProjectIDs: t.ProjectIDs, Scopes: t.Scopes})
	return tokens.Minted{Token: t.Token, Expiry: t.ExpiresAt, Detail: t}, nil
}

// LastInstallationToken returns what the latest mint of the client's installation
// token said about the grant: its organization, the projects it covers and
// the scopes granted, with the token's expiry; Token and Raw are left
// empty. It reports false before the client's first mint. It sends no
// request: Installations.CreateToken mints anew.
func (c *Client) LastInstallationToken() (InstallationToken, bool) {
	t := c.lastMint.Load()
	if t == nil {
		return InstallationToken{}, false
	}
	return *t, true
}

// parseMint decodes a mint answer received at received.
func parseMint(path string, data []byte, received time.Time) (*InstallationToken, error) {
	var w mintTokenWire
	if err := decode(http.MethodPost, path, data, &w); err != nil {
		return nil, err
	}
	raw := json.RawMessage(data)
	if w.token() == "" {
		if inner := envelope(data, "data", "installation"); inner != nil {
			w = mintTokenWire{}
			if err := decode(http.MethodPost, path, inner, &w); err != nil {
				return nil, err
			}
			raw = inner
		}
	}
	t := &InstallationToken{Token: w.token(), OrganizationID: cmp.Or(w.OrganizationID, w.OrganizationID2),
		ProjectIDs: w.ProjectIDs, Scopes: scopeList(w.Scopes), Raw: raw}
	if t.ProjectIDs == nil {
		t.ProjectIDs = w.ProjectIDs2
	}
	if t.Token == "" {
		return nil, fmt.Errorf("partner: POST %s: %w: no token in the answer", path, apierr.ErrUnexpectedResponse)
	}
	var err error
	if t.ExpiresAt, err = mintExpiry(w, received); err != nil {
		return nil, fmt.Errorf("partner: POST %s: %w: %v", path, apierr.ErrUnexpectedResponse, err)
	}
	return t, nil
}

// scopeList reads scopes as a JSON array or a space-separated string.
func scopeList(raw json.RawMessage) []string {
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return list
	}
	var s string
	if json.Unmarshal(raw, &s) == nil && s != "" {
		return strings.Fields(s)
	}
	return nil
}

// mintExpiry reads expiresAt/expires_at (RFC 3339) or expiresIn/expires_in
// (seconds, number or numeric string); with none it is one hour. A bad
// value is quoted only by a short prefix.
func mintExpiry(w mintTokenWire, received time.Time) (time.Time, error) {
	if at := cmp.Or(w.ExpiresAt, w.ExpiresAt2); at != "" {
		t, err := time.Parse(time.RFC3339, at)
		if err != nil {
			return time.Time{}, fmt.Errorf("expiry %s is not RFC 3339", apierr.Quote(at))
		}
		return t, nil
	}
	for _, in := range []json.RawMessage{w.ExpiresIn, w.ExpiresIn2} {
		if len(in) == 0 || string(in) == "null" {
			continue
		}
		var n flexString // a number, or a numeric string
		if json.Unmarshal(in, &n) != nil {
			return time.Time{}, fmt.Errorf("expires_in %s is not a number", apierr.Quote(string(in)))
		}
		secs, err := strconv.ParseFloat(string(n), 64)
		if err != nil || secs <= 0 {
			return time.Time{}, fmt.Errorf("expires_in %s is not a positive number", apierr.Quote(string(n)))
		}
		return received.Add(time.Duration(min(secs, maxInstallationLifetime.Seconds()) * float64(time.Second))), nil
	}
	return received.Add(defaultInstallationLifetime), nil
}
