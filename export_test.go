package partner

import (
	"github.com/locsvc/partner-go/internal/apierr"
)

// InstallationTokenPrefix starts every installation token, for the tests
// that tell it from an access token.
const InstallationTokenPrefix = installationTokenPrefix

// PoolFailedLen is how many evicted failed grants p remembers, for the
// test that the set stays bounded.
func PoolFailedLen(p *Pool) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.failed.Len()
}

// GrantsOf reads the grants of a code exchange's answer, for its fuzz
// target.
var GrantsOf = grantsOf

// MaxToolText is how many bytes of a tool's failure text a ToolError
// keeps, for the test that a token crossing the cut is scrubbed.
const MaxToolText = apierr.MaxToolText

// ConfigPool returns the settings cfg shares with a PoolConfig, for the
// test that NewClient and NewPool read the same ones.
func ConfigPool(cfg Config) PoolConfig { return cfg.pool() }
