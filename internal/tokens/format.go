package tokens

import (
	"fmt"
	"log/slog"
)

// The types of this package that hold a secret format without it, whether
// printed with any verb or logged with slog.

// String describes the configuration without its secret.
func (c Config) String() string {
	return fmt.Sprintf("tokens.Config{AuthURL: %q, ClientID: %q, ClientSecret: [redacted]}", c.AuthURL, c.ClientID)
}

// GoString is String, so %#v shows no secret either.
func (c Config) GoString() string { return c.String() }

// LogValue makes slog log the configuration without its secret.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(slog.String("auth_url", c.AuthURL), slog.String("client_id", c.ClientID),
		slog.String("client_secret", "[redacted]"))
}

// String describes the refresher without its secret.
func (r *Refresher) String() string { return "tokens.Refresher{" + r.cfg.String() + "}" }

// GoString is String.
func (r *Refresher) GoString() string { return r.String() }

// String describes the source without its tokens.
func (s *AccessSource) String() string { return "tokens.AccessSource{grant: " + s.grantID + "}" }

// GoString is String.
func (s *AccessSource) GoString() string { return s.String() }

// LogValue makes slog log the source without its tokens.
func (s *AccessSource) LogValue() slog.Value { return slog.StringValue(s.String()) }

// String describes the source without its token.
func (s *InstallationSource) String() string {
	return "tokens.InstallationSource{grant: " + s.cfg.Access.grantID + "}"
}

// GoString is String.
func (s *InstallationSource) GoString() string { return s.String() }

// LogValue makes slog log the source without its token.
func (s *InstallationSource) LogValue() slog.Value { return slog.StringValue(s.String()) }

// String describes what was minted without the token.
func (m Minted) String() string { return fmt.Sprintf("installation token (expires %s)", m.Expiry) }

// GoString is String.
func (m Minted) GoString() string { return m.String() }
