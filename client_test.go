package partner_test

// Client construction: what NewClient and NewPool accept, refuse and keep.

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
)

// TestConfigValidation: NewClient refuses an incomplete or unsafe Config
// with an error naming the field.
func TestConfigValidation(t *testing.T) {
	ok := newScript().config()
	tests := []struct {
		field string
		edit  func(*partner.Config)
	}{
		{"Config.BaseURL", func(c *partner.Config) { c.BaseURL = "" }},
		{"Config.AuthURL", func(c *partner.Config) { c.AuthURL = "" }},
		{"Config.BaseURL", func(c *partner.Config) { c.BaseURL = "api.example.test" }},
		{"Config.BaseURL", func(c *partner.Config) { c.BaseURL = "ftp://api.example.test" }},
		{"Config.BaseURL", func(c *partner.Config) { c.BaseURL = "http://api.example.test" }},
		{"Config.AuthURL", func(c *partner.Config) { c.AuthURL = "http://10.0.0.8" }},
		{"Config.BaseURL", func(c *partner.Config) { c.BaseURL = "https://api.example.test/?key=x" }},
		{"Config.BaseURL", func(c *partner.Config) { c.BaseURL = "https://user:pw@api.example.test" }},
		{"Config.ClientID", func(c *partner.Config) { c.ClientID = "" }},
		{"Config.ClientSecret", func(c *partner.Config) { c.ClientSecret = "" }},
		{"Config.GrantID", func(c *partner.Config) { c.GrantID = "" }},
		{"Config.GrantID", func(c *partner.Config) { c.GrantID = "a/../b" }},
		{"Config.Token", func(c *partner.Config) { c.Token = nil }},
		{"Config.Token.RefreshToken", func(c *partner.Config) { c.Token = &oauth2.Token{AccessToken: "x"} }},
	}
	for _, tt := range tests {
		cfg := ok
		tt.edit(&cfg)
		_, err := partner.NewClient(cfg)
		if !errors.Is(err, partner.ErrInvalidArgument) || !strings.Contains(err.Error(), tt.field) {
			t.Errorf("%+v: err = %v, want ErrInvalidArgument naming %s", cfg, err, tt.field)
		}
		if err != nil {
			assertNoSecret(t, err.Error(), []string{clientSecret, refreshTok})
		}
	}
	for _, u := range []string{"http://127.0.0.1:8080", "http://localhost:1", "http://[::1]:9"} {
		cfg := ok
		cfg.BaseURL = u
		if _, err := partner.NewClient(cfg); err != nil {
			t.Errorf("loopback %s refused: %v", u, err)
		}
	}
	cfg := ok
	cfg.BaseURL, cfg.AllowInsecureHTTP = "http://api.internal", true
	if _, err := partner.NewClient(cfg); err != nil {
		t.Errorf("http with AllowInsecureHTTP refused: %v", err)
	}
}

// TestEmptyConfig: the first field named is the first one a user fills in.
func TestEmptyConfig(t *testing.T) {
	_, err := partner.NewClient(partner.Config{})
	if !errors.Is(err, partner.ErrInvalidArgument) || !strings.Contains(err.Error(), "Config.BaseURL is required") {
		t.Errorf("NewClient(Config{}) = %v, want it to name Config.BaseURL", err)
	}
}

// TestCallerClientUntouched: the SDK copies the caller's *http.Client.
func TestCallerClientUntouched(t *testing.T) {
	s := newScript()
	hc := &http.Client{Transport: s, Timeout: 7 * time.Second}
	before := *hc
	cfg := s.config()
	cfg.HTTPClient = hc
	if err := getProject(t.Context(), s.client(t, cfg)); err != nil {
		t.Fatal(err)
	}
	if hc.Transport != before.Transport || hc.Timeout != before.Timeout || hc.CheckRedirect != nil || hc.Jar != nil {
		t.Errorf("the caller's client was modified: %+v", hc)
	}
}
